/**
 * Documents (decision 0062): the administrator uploads a document for every member in the browser; a
 * resident opens it once online and then again offline (the file kept on the device); a resident
 * of another association neither lists it nor opens it. The screens are axe-clean and fit 375 px,
 * in English and Danish (screenshots under test-results/ for a person to look at).
 */
import { describe, expect, it } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { snap } from './harness'
import { checkScreen, journeySuite, signIn } from './journeys'

const { journey, serverRows, tr, residentOfHavnehuset, api, tokenOf } = journeySuite('documents', 31)

const RULES = 'Husorden for Solgården: ingen grill på altanerne, affald i gården.'

/** A catalog text with its `{values}` as a pattern that matches any value. */
const pattern = (text: string) => new RegExp(`^${text.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '.+')}$`)

const waitForServiceWorker = (page: Page) => page.evaluate(async () => void (await navigator.serviceWorker.ready))

describe('documents', () => {
  it('an uploaded document for members opens for a resident offline after one online visit, and not for another association', async () => {
    let documentId = ''
    const admin = 'admin@solgaarden.dk'
    await journey('upload', async (_context: BrowserContext, page: Page) => {
      const t = tr(admin)
      await signIn(page, admin)
      await page.getByRole('link', { name: t('Documents'), exact: true }).click()
      await page.getByRole('heading', { name: t('Documents'), level: 1 }).waitFor()
      await page.getByRole('link', { name: t('Upload a document') }).click()
      await page.getByRole('heading', { name: t('Upload a document'), level: 1 }).waitFor()
      // Sent empty: what is missing, in the user's language.
      await page.getByRole('button', { name: t('Upload'), exact: true }).click()
      await page.getByText(t('Please enter a title')).waitFor()
      await page.getByText(t('Please choose a file')).waitFor()
      await checkScreen(page, 'documents-upload-errors')
      await page.getByLabel(t('Title'), { exact: true }).fill('Husorden 2027')
      await page.getByLabel(t('Category'), { exact: true }).selectOption('HOUSE_RULES')
      await page.getByLabel(t('Who may read it'), { exact: true }).selectOption('MEMBERS')
      await page.getByLabel(t('File'), { exact: true }).setInputFiles({ name: 'husorden.txt', mimeType: 'text/plain', buffer: Buffer.from(RULES) })
      await page.getByRole('button', { name: t('Upload'), exact: true }).click()
      await page.getByRole('heading', { name: 'Husorden 2027', level: 1 }).waitFor()
      await page.getByText(RULES).waitFor()
      documentId = page.url().split('/documents/')[1]!
      await checkScreen(page, 'documents-document-staff')
      await page.goto('/documents')
      await page.getByRole('link', { name: 'Husorden 2027' }).waitFor()
      await checkScreen(page, 'documents-list-staff')
    })
    const [row] = serverRows<{ audience: string; category: string }>('SELECT audience, category FROM documents WHERE id = ?', documentId)
    expect(row).toEqual({ audience: 'MEMBERS', category: 'HOUSE_RULES' })

    const resident = 'beboer03@solgaarden.dk'
    await journey('resident offline', async (context, page) => {
      const t = tr(resident)
      await signIn(page, resident)
      await waitForServiceWorker(page)
      await page.getByRole('link', { name: t('Documents'), exact: true }).click()
      await page.getByRole('link', { name: 'Husorden 2027' }).click()
      await page.getByText(RULES).waitFor()
      // Kept on the device once opened.
      await page.getByText(t('On this device')).first().waitFor()
      await checkScreen(page, 'documents-document-resident')
      await context.setOffline(true)
      await page.reload()
      await page.getByRole('heading', { name: 'Husorden 2027', level: 1 }).waitFor()
      await page.getByText(RULES).waitFor()
      await snap(page, 'documents-document-resident-offline')
      await page.goto('/documents').catch(() => undefined)
      await page.getByRole('link', { name: 'Husorden 2027' }).waitFor()
      await page.getByText(t('On this device')).first().waitFor()
      await snap(page, 'documents-list-resident-offline')
    })

    const outsider = 'beboer12@solgaarden.dk'
    residentOfHavnehuset(outsider, 9001)
    await journey('another association', async (_context, page) => {
      const t = tr(outsider)
      await signIn(page, outsider)
      await page.goto('/documents')
      await page.getByRole('heading', { name: t('Documents'), level: 1 }).waitFor()
      await page.getByText(t('No documents')).waitFor()
      await page.goto(`/documents/${documentId}`)
      await page.getByText(t('Document not found.')).first().waitFor()
      const status = await page.evaluate(async (id) => {
        const token = JSON.parse(localStorage.getItem('boligkasse.session')!).token as string
        return (await fetch(`/api/documents/${id}/file`, { headers: { Authorization: `Bearer ${token}` } })).status
      }, documentId)
      expect(status).toBe(404)
    })
  })

  it('staff see the storage in use; past the quota an upload is refused in their language and nothing is stored', async () => {
    const chairman = 'formand@solgaarden.dk'
    const t = tr(chairman)
    const companyId = serverRows<{ id: string }>("SELECT id FROM companies WHERE cvr = '10150817'")[0]!.id
    const superadmin = await tokenOf('superadmin@boligkasse.dk')
    // The association's own quota, one byte above what it stores (decision 0082): the document of the
    // journey above makes it over 90 % full, and no file fits.
    const { usedBytes } = await api<{ usedBytes: number }>(superadmin, 'GET', `/storage/${companyId}`)
    expect(usedBytes).toBeGreaterThan(10)
    await api(superadmin, 'PUT', `/storage/${companyId}/quota`, { quotaBytes: usedBytes + 1 })
    const documents = () => serverRows<{ n: number }>('SELECT count(*) AS n FROM documents')[0]!.n
    const before = documents()
    await journey('storage full', async (_context, page) => {
      await signIn(page, chairman)
      await page.getByRole('link', { name: t('Documents'), exact: true }).click()
      await page.getByRole('heading', { name: t('Documents'), level: 1 }).waitFor()
      await page.getByRole('meter', { name: pattern(t('Storage: {used} of {quota} used')) }).waitFor()
      await page.getByText(t('The storage is almost full. Delete files the association no longer needs, or ask the administrator for more room.')).waitFor()
      await checkScreen(page, 'documents-storage-almost-full')
      await page.getByRole('link', { name: t('Upload a document') }).click()
      await page.getByLabel(t('Title'), { exact: true }).fill('Referat marts')
      await page.getByLabel(t('Category'), { exact: true }).selectOption('MINUTES')
      await page.getByLabel(t('Who may read it'), { exact: true }).selectOption('MEMBERS')
      await page.getByLabel(t('File'), { exact: true }).setInputFiles({ name: 'referat.txt', mimeType: 'text/plain', buffer: Buffer.from(RULES) })
      await page.getByRole('button', { name: t('Upload'), exact: true }).click()
      const full = t(
        'The association’s storage is full: {used} of {quota} used, and this file needs {size}. Delete files the association no longer needs, or ask the administrator for more room.',
      )
      await page.getByText(pattern(full)).first().waitFor()
      await checkScreen(page, 'documents-upload-storage-full')
    })
    expect(documents()).toBe(before)
    await api(superadmin, 'PUT', `/storage/${companyId}/quota`, { quotaBytes: null })
  })

  it('the super admin gives an association its own storage quota on its Overview, and the default again', async () => {
    const admin = 'superadmin@boligkasse.dk'
    const t = tr(admin)
    const companyId = serverRows<{ id: string }>("SELECT id FROM companies WHERE cvr = '10150817'")[0]!.id
    const quota = () => serverRows<{ quota_bytes: number }>('SELECT quota_bytes FROM storage_quotas WHERE company_id = ?', companyId)[0]?.quota_bytes
    expect(quota()).toBeUndefined()
    await journey('quota', async (_context, page) => {
      await signIn(page, admin)
      await page.goto(`/company/${companyId}`)
      const section = page.getByRole('region', { name: t('Storage') })
      await section.getByRole('meter', { name: pattern(t('Storage: {used} of {quota} used')) }).waitFor()
      await section.getByText(t('This association has the default quota.')).waitFor()
      const field = section.getByLabel(t('Quota (MB)'))
      // Not a whole number of MB: said under the field, nothing sent.
      await field.fill('2,5')
      await section.getByRole('button', { name: t('Save quota') }).click()
      await section.getByText(pattern(t('Enter a whole number of MB from 1 to {0}.'))).waitFor()
      expect(quota()).toBeUndefined()
      await field.fill('2048')
      await field.press('Enter')
      await section.getByText(pattern(t('The association’s storage quota is now {quota}.'))).waitFor()
      await section.getByText(t('This association has its own quota.')).waitFor()
      expect(quota()).toBe(2048 * 1024 ** 2)
      await checkScreen(page, 'company-storage-quota')
      await section.getByRole('button', { name: t('Use the default') }).click()
      await section.getByText(pattern(t('The association has the default storage quota again: {quota}.'))).waitFor()
      expect(quota()).toBeUndefined()
    })
  })
})

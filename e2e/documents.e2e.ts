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

const { journey, serverRows, tr, residentOfHavnehuset } = journeySuite('documents', 31)

const RULES = 'Husorden for Solgården: ingen grill på altanerne, affald i gården.'

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
})

/**
 * The market (decision 0063): a resident lists a swap item with a photo; a neighbour finds it and writes
 * to the seller (who gets an e-mail); the seller marks it reserved; 30 days later the listing has
 * expired: neighbours no longer see it, the seller sees "Expired — renew" and renews it. A resident
 * of another association neither lists nor opens it. The screens are axe-clean and fit 375 px, in
 * English and Danish (the seller speaks Danish, the neighbour English; screenshots under test-results/).
 */
import { describe, expect, it } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { checkScreen, journeySuite, signIn } from './journeys'

const { journey, serverRows, writeDb, tr, residentOfHavnehuset } = journeySuite('market', 33)

const DAY = 86_400_000
const TITLE = 'Plantestiklinger'
/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')

const listing = (id: string) =>
  serverRows<{ status: string; photo_id: string | null; expires_at: string }>('SELECT status, photo_id, expires_at FROM market_listings WHERE id = ?', id)[0]

describe('market', () => {
  it('a swap listing is listed with a photo, contacted, reserved, expires after 30 days and is renewed; another association never sees it', async () => {
    const seller = 'beboer05@solgaarden.dk'
    const neighbour = 'beboer06@solgaarden.dk'
    let id = ''

    await journey('seller lists a swap item', async (_context: BrowserContext, page: Page) => {
      const t = tr(seller)
      await signIn(page, seller)
      await page.getByRole('link', { name: t('Swap'), exact: true }).click()
      await page.getByRole('heading', { name: t('Swap'), level: 1 }).waitFor()
      await page.getByText(t('No listings yet')).waitFor()
      await page.getByRole('link', { name: t('New listing') }).click()
      await page.getByRole('heading', { name: t('New listing'), level: 1 }).waitFor()
      // Sent empty: what is missing, in the user's language.
      await page.getByRole('button', { name: t('Publish listing') }).click()
      await page.getByText(t('Please enter a title')).waitFor()
      await checkScreen(page, 'market-form-errors')
      await page.getByLabel(t('Title'), { exact: true }).fill(TITLE)
      await page.getByLabel(t('Description'), { exact: true }).fill('Monstera og pilea, byttes gerne med andre planter.')
      await page.getByLabel(t('Photo (optional)'), { exact: true }).setInputFiles({ name: 'planter.png', mimeType: 'image/png', buffer: PNG })
      await page.getByRole('button', { name: t('Publish listing') }).click()
      await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor()
      id = page.url().split('/markets/listing/')[1]!
      await expect.poll(() => listing(id)?.photo_id ?? null, { timeout: 10_000 }).not.toBeNull()
      await page.locator('img.listing-photo').waitFor()
      await checkScreen(page, 'market-listing-seller')
      await page.goto('/markets/swap')
      await page.getByRole('link', { name: TITLE }).waitFor()
      await page.locator('img.listing-thumb').waitFor()
      await checkScreen(page, 'market-list-seller')
    })
    expect(listing(id)).toMatchObject({ status: 'AVAILABLE' })

    await journey('a neighbour writes to the seller', async (_context, page) => {
      const t = tr(neighbour)
      await signIn(page, neighbour)
      await page.getByRole('link', { name: t('Swap'), exact: true }).click()
      await page.getByRole('link', { name: TITLE }).click()
      await page.getByRole('heading', { name: t('Write to the seller') }).waitFor()
      await page.getByLabel(t('Message'), { exact: true }).fill('Hej! Jeg bytter gerne med en stor aloe vera.')
      await page.getByRole('button', { name: t('Send'), exact: true }).click()
      await page
        .locator('.alert')
        .filter({ hasText: t('Your message was sent.').slice(0, 10) })
        .waitFor()
      await checkScreen(page, 'market-listing-neighbour')
    })
    const mails = serverRows<{ to: string; text: string }>('SELECT "to", text FROM mail_outbox WHERE "to" = ? AND text LIKE \'%aloe vera%\'', seller)
    expect(mails).toHaveLength(1)
    expect(mails[0]!.text).toContain(neighbour)

    await journey('the seller marks it reserved', async (_context, page) => {
      const t = tr(seller)
      await signIn(page, seller)
      await page.goto(`/markets/listing/${id}`)
      await page.getByRole('button', { name: t('Mark as reserved') }).click()
      await page.getByRole('button', { name: t('Mark as available') }).waitFor()
      await expect.poll(() => listing(id)?.status, { timeout: 10_000 }).toBe('RESERVED')
      await page.locator('.listing-badges').getByText(t('Reserved'), { exact: true }).waitFor()
    })

    // 30 days on: the listing was made and last renewed 31 days ago.
    writeDb((db) =>
      db
        .prepare('UPDATE market_listings SET created_at = ?, expires_at = ? WHERE id = ?')
        .run(new Date(Date.now() - 31 * DAY).toISOString(), new Date(Date.now() - DAY).toISOString(), id),
    )

    await journey('expired: gone from the neighbour’s list', async (_context, page) => {
      const t = tr(neighbour)
      await signIn(page, neighbour)
      await page.goto('/markets/swap')
      await page.getByText(t('No listings yet')).waitFor()
      expect(await page.getByRole('link', { name: TITLE }).count()).toBe(0)
      // A link to it: no longer available, nothing to write to (the server refuses it too).
      await page.goto(`/markets/listing/${id}`)
      await page.getByText(t('This listing is no longer available.')).waitFor()
      expect(await page.getByRole('heading', { name: t('Write to the seller') }).count()).toBe(0)
      await checkScreen(page, 'market-listing-expired-neighbour')
    })

    await journey('expired: the seller renews it', async (_context, page) => {
      const t = tr(seller)
      await signIn(page, seller)
      await page.goto('/markets/swap')
      await page.getByText(t('Expired — renew')).waitFor()
      await checkScreen(page, 'market-list-expired')
      await page.getByRole('link', { name: TITLE }).click()
      await page.getByText(t('This listing has expired: neighbours no longer see it. Renew it to list it for another 30 days.')).waitFor()
      await checkScreen(page, 'market-listing-expired')
      await page.getByRole('button', { name: t('Renew'), exact: true }).click()
      await expect.poll(() => new Date(listing(id)!.expires_at).getTime() > Date.now() + 29 * DAY, { timeout: 10_000 }).toBe(true)
      await page.getByText(t('Expired — renew')).waitFor({ state: 'detached' })
    })

    const outsider = 'beboer12@solgaarden.dk'
    residentOfHavnehuset(outsider, 9002)
    await journey('another association', async (_context, page) => {
      const t = tr(outsider)
      await signIn(page, outsider)
      await page.goto('/markets/swap')
      await page.getByRole('heading', { name: t('Swap'), level: 1 }).waitFor()
      await page.getByText(t('No listings yet')).waitFor()
      await page.goto(`/markets/listing/${id}`)
      await page.getByText(t('Listing not found.')).first().waitFor()
      const status = await page.evaluate(async (listingId) => {
        const token = JSON.parse(localStorage.getItem('boligkasse.session')!).token as string
        const headers = { Authorization: `Bearer ${token}` }
        return [(await fetch(`/api/market/${listingId}`, { headers })).status, (await fetch(`/api/market/${listingId}/photo`, { headers })).status]
      }, id)
      expect(status).toEqual([404, 404])
    })
  })

  it('a resident without an agreement is told that the market, lending, the forum, documents and specialists are for members, with nothing to create', async () => {
    const outsider = 'beboer01@solgaarden.dk'
    await journey('resident without an agreement', async (_context: BrowserContext, page: Page) => {
      const t = tr(outsider)
      await signIn(page, outsider)
      for (const [path, note, create, shot] of [
        [
          '/markets/swap',
          'The market is for the members of an association: residents with an agreement and its staff. Once you are one, you can list things and answer listings here.',
          'New listing',
          'market-not-a-member',
        ],
        [
          '/lending',
          'Lending is for the members of an association: residents with an agreement and its staff. Once you are one, you can borrow and lend here.',
          'Lend something',
          'lending-not-a-member',
        ],
        [
          '/forum',
          'The forum is for the members of an association: residents with an agreement and its staff. Once you are one, you can read and write here.',
          'New thread',
          'forum-not-a-member',
        ],
        [
          '/documents',
          'Documents are for the members of an association: residents with an agreement and its staff. Once you are one, its bylaws, minutes and other papers show here.',
          'Upload a document',
          'documents-not-a-member',
        ],
        [
          '/specialists',
          'Specialists are for the members of an association: residents with an agreement and its staff. Once you are one, the craftsmen and advisers it uses show here.',
          'Add specialist',
          'specialists-not-a-member',
        ],
      ] as const) {
        await page.goto(path)
        await page.getByText(t(note)).waitFor()
        expect(await page.getByRole('link', { name: t(create) }).count()).toBe(0)
        await checkScreen(page, shot)
      }
    })
  })
})

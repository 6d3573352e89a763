/**
 * Push notifications (decision 0088): a resident (Emma, English) turns notifications on in her
 * profile, chooses messages and quiet hours, and a message the board sends her reaches the push
 * service on this machine (/push-emulator) and decrypts to the lock-screen title and the message's
 * path; the service worker shows a push as a notification. A Danish resident (Lars) sees the
 * section in Danish. Every screen is axe-clean and fits 375 px (screenshots under test-results/).
 *
 * Headless Chromium cannot subscribe at a real push service (no network, no Google registration),
 * so `PushManager.prototype.subscribe` and `getSubscription` are replaced before the app loads
 * (`addInitScript`) by ones that take a subscription from the test push service, as a browser
 * takes one from its own: everything after it (the VAPID key asked, the device signed up, the
 * server's encryption and VAPID signature, the emulator's checks and decryption) is the real path.
 * The service worker's `push` handler is driven through the DevTools protocol's
 * `ServiceWorker.deliverPushMessage`, the way a push service's message reaches it.
 */
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { DEMO_PASSWORD } from './harness'
import { checkScreen, journeySuite, signIn } from './journeys'

const { journey, serverRows, tr } = journeySuite('push', 88)

/** Replaces the browser's push subscription with one from the test push service (kept in localStorage across reloads). */
const stubPushManager = () => {
  const KEY = 'e2e-push-subscription'
  const fake = (json: { endpoint: string; keys: { p256dh: string; auth: string } }, key: ArrayBuffer | null) => ({
    endpoint: json.endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey: key },
    toJSON: () => ({ endpoint: json.endpoint, expirationTime: null, keys: json.keys }),
    getKey: () => null,
    unsubscribe: async () => {
      localStorage.removeItem(KEY)
      return true
    },
  })
  PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
    const res = await fetch('/push-emulator/subscriptions', { method: 'POST' })
    const json = (await res.json()) as { endpoint: string; keys: { p256dh: string; auth: string } }
    const key = options?.applicationServerKey ? new Uint8Array(options.applicationServerKey as ArrayBuffer).slice().buffer : null
    localStorage.setItem(KEY, JSON.stringify({ json, key: key ? Array.from(new Uint8Array(key)) : null }))
    return fake(json, key) as unknown as PushSubscription
  }
  PushManager.prototype.getSubscription = async function () {
    const kept = localStorage.getItem(KEY)
    if (!kept) return null
    const { json, key } = JSON.parse(kept) as { json: { endpoint: string; keys: { p256dh: string; auth: string } }; key: number[] | null }
    return fake(json, key ? new Uint8Array(key).buffer : null) as unknown as PushSubscription
  }
}

async function openNotifications(page: Page, email: string) {
  const t = tr(email)
  await signIn(page, email)
  await page.goto('/user')
  await page.getByRole('heading', { name: t('Notifications on this device'), level: 2 }).waitFor()
  return t
}

describe('push notifications', () => {
  const resident = 'beboer03@solgaarden.dk'

  it('a resident turns notifications on; a message to her reaches the test push service with only its title and path', async () => {
    await journey('the resident turns notifications on', async (context, page) => {
      await context.grantPermissions(['notifications'])
      await page.addInitScript(stubPushManager)
      const t = await openNotifications(page, resident)
      await page.getByText(t('Notifications are off for this device.')).waitFor()
      await page.getByRole('button', { name: t('Turn on for this device') }).click()
      await page.getByText(t('Notifications are on for this device.')).waitFor()
      await page.getByLabel(t('Messages from the association and about your listings')).check()
      await page.getByLabel(t('Hold notifications during quiet hours')).check()
      // An hour that is half a day away, so the message below is not held by them.
      const far = `${String((new Date().getUTCHours() + 12) % 24).padStart(2, '0')}:00`
      const farEnd = `${String((new Date().getUTCHours() + 13) % 24).padStart(2, '0')}:00`
      await page.getByLabel(t('From'), { exact: true }).fill(far)
      await page.getByLabel(t('To'), { exact: true }).fill(farEnd)
      await page.getByRole('button', { name: t('Save notification settings') }).click()
      await page.getByText(t('Notification settings saved.')).waitFor()
      await page.getByRole('heading', { name: t('Devices that get notifications') }).waitFor()
      await checkScreen(page, 'push-profile')

      const userId = serverRows<{ id: string }>('SELECT id FROM users WHERE email_address = ?', resident)[0]!.id
      const [device] = serverRows<{ endpoint: string }>('SELECT endpoint FROM push_subscriptions WHERE user_id = ?', userId)
      expect(device!.endpoint).toMatch(/\/push-emulator\/push\/[0-9a-f-]{36}$/)
      const prefs = serverRows<{ groups: string; quiet_from: string }>('SELECT groups, quiet_from FROM push_preferences WHERE user_id = ?', userId)[0]!
      expect(JSON.parse(prefs.groups)).toEqual(['messages'])
      expect(prefs.quiet_from).toBe(far)

      // The board sends a message to all members (through the API, as the messages journey does on screen).
      const login = await context.request.post('/api/auth/login', { data: { type: 'email', email: 'bestyrelse@solgaarden.dk', password: DEMO_PASSWORD } })
      expect(login.status()).toBe(200)
      const auth = { Authorization: `Bearer ${(await login.json()).accessToken}` }
      const info = await (await context.request.get('/api/account/info', { headers: auth })).json()
      const companyId = (info.currentCompany?.id ?? info.companies[0].id) as string
      const draft = await context.request.post('/api/messages', {
        headers: { ...auth, 'Idempotency-Key': crypto.randomUUID() },
        data: { companyId, type: 'NOTICE', subject: 'Vandet lukkes tirsdag', body: 'Kære beboere', recipient: { kind: 'ALL_MEMBERS' } },
      })
      expect(draft.status(), await draft.text()).toBe(201)
      const messageId = (await draft.json()).id as string
      const sent = await context.request.post(`/api/messages/${messageId}/send`, { headers: { ...auth, 'Idempotency-Key': crypto.randomUUID() } })
      expect(sent.status(), await sent.text()).toBe(200)

      // The push job (every 5 s) sends it; the test push service decrypts it with the device's key.
      const messagesUrl = `${device!.endpoint.replace('/push/', '/subscriptions/')}/messages`
      await expect
        .poll(async () => ((await (await context.request.get(messagesUrl)).json()) as Array<{ payload: string }>).map((m) => JSON.parse(m.payload)))
        .toEqual([{ title: 'New message in Boligkasse', url: `/messages/${messageId}` }])
    })
  })

  it('the service worker shows a push as a notification', async () => {
    await journey('the service worker shows a push', async (context, page) => {
      await context.grantPermissions(['notifications'])
      await signIn(page, resident)
      const origin = new URL(page.url()).origin
      await page.evaluate(async () => void (await navigator.serviceWorker.ready))
      const cdp = await context.newCDPSession(page)
      const registered = new Promise<string>((resolve) =>
        cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: Array<{ registrationId: string; scopeURL: string }> }) => {
          const found = e.registrations.find((r) => r.scopeURL.startsWith(origin))
          if (found) resolve(found.registrationId)
        }),
      )
      await cdp.send('ServiceWorker.enable')
      const registrationId = await registered
      await cdp.send('ServiceWorker.deliverPushMessage', {
        origin,
        registrationId,
        data: JSON.stringify({ title: 'New message in Boligkasse', url: '/messages' }),
      })
      const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'))
      await expect
        .poll(() =>
          worker.evaluate(async () =>
            (await (self as unknown as { registration: ServiceWorkerRegistration }).registration.getNotifications()).map((n: Notification) => ({
              title: n.title,
              data: n.data as unknown,
            })),
          ),
        )
        .toEqual([{ title: 'New message in Boligkasse', data: { url: '/messages' } }])
    })
  })

  it('a Danish resident sees the section in Danish', async () => {
    await journey('the section in Danish', async (_context, page) => {
      const t = await openNotifications(page, 'beboer02@solgaarden.dk')
      await page.getByText(t('What to notify about (on all your devices)')).waitFor()
      await checkScreen(page, 'push-profile-da')
    })
  })
})

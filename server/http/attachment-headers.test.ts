import { beforeAll, describe, expect, it } from 'vitest'
import { demo, testApp, type TestApp } from '../test/harness'
import { companyIds } from '../features/companies/test-helpers'

describe('attachment downloads', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp()
  })

  it('carry Content-Disposition: attachment, nosniff and a sandbox CSP that the page policy does not replace', async () => {
    const { main } = await companyIds(t)
    const admin = await t.login(demo.admin)
    const created = await t.call('POST', '/messages', {
      token: admin,
      body: { companyId: main, type: 'MESSAGE', subject: 'Referat', body: 'Se vedhæftet.', recipient: { kind: 'BOARD' } },
    })
    expect(created.status, JSON.stringify(created.json)).toBe(201)
    const form = new FormData()
    // A text file whose bytes are a page with a script: a browser must never run it in the app's origin.
    const page = new TextEncoder().encode('<html><script>fetch("/api/account/info")</script></html>')
    form.set('file', new File([page as unknown as ArrayBuffer], 'referat.txt'))
    const upload = await t.app.request(`/api/messages/${created.json.id}/attachments`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${admin}` },
      body: form,
    })
    expect(upload.status, await upload.clone().text()).toBe(201)
    const attachment = (await upload.json()).attachments[0]

    const got = await t.app.request(`/api/messages/${created.json.id}/attachments/${attachment.id}`, { headers: { Authorization: `Bearer ${admin}` } })
    expect(got.status).toBe(200)
    expect(got.headers.get('Content-Disposition')).toBe("attachment; filename*=UTF-8''referat.txt")
    expect(got.headers.get('X-Content-Type-Options')).toBe('nosniff')
    expect(got.headers.get('Cache-Control')).toBe('no-store')
    const csp = (got.headers.get('Content-Security-Policy') ?? '').split(';').map((d) => d.trim())
    expect(csp).toEqual(expect.arrayContaining(['sandbox', "default-src 'none'", "frame-ancestors 'none'"]))
    expect(csp.some((d) => d.startsWith('script-src'))).toBe(false)
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(page)
  })

  it('other answers keep the app-wide policy', async () => {
    const res = await t.app.request('/api/health')
    expect(res.headers.get('Content-Security-Policy')).toContain("script-src 'self'")
    expect(res.headers.get('X-Frame-Options')).toBe('DENY')
  })
})

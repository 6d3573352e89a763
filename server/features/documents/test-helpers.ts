import { demo, testApp, type TestApp } from '../../test/harness'
import { createAgreement } from '../agreements/test-helpers'
import { companyIds } from '../companies/test-helpers'

/** A small real PDF: its second line is binary (bytes ≥ 0x80), so an upload must keep every byte. */
export const pdfBytes = (text = 'Vedtægter') =>
  new Uint8Array([...new TextEncoder().encode('%PDF-1.4\n%'), 0xe2, 0xe3, 0xcf, 0xd3, ...new TextEncoder().encode(`\n% ${text}\n%%EOF\n`)])

/** The demo company with two residents holding agreements (demo.resident and demo.residentDa). */
export async function documentFixtures(t: TestApp) {
  const { main, second } = await companyIds(t)
  const admin = await t.login(demo.admin)
  await createAgreement(t, {}, admin)
  await createAgreement(t, { emailAddress: demo.residentDa, memberName: 'Lars Pedersen' }, admin)
  return { main, second, admin }
}

export type Fixtures = Awaited<ReturnType<typeof documentFixtures>>

/**
 * A test app where Solgården's two residents (English and Danish, each with an agreement) and its
 * board member are signed in: the setup of the neighbours' features (market, lending, forum).
 */
export async function neighbourhood() {
  const t = await testApp()
  const f = await documentFixtures(t)
  return { t, f, resident: await t.login(demo.resident), residentDa: await t.login(demo.residentDa), board: await t.login(demo.boardmember) }
}

/** `POST /api/documents` as multipart, like the browser sends it. */
export async function uploadDocument(
  t: TestApp,
  token: string | undefined,
  fields: Record<string, string>,
  file: { name: string; bytes: Uint8Array } | null = { name: 'Vedtaegter.pdf', bytes: pdfBytes() },
) {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.set(k, v)
  if (file) form.set('file', new File([file.bytes as unknown as ArrayBuffer], file.name))
  const res = await t.app.request('/api/documents', {
    method: 'POST',
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), 'Accept-Language': 'en' },
    body: form,
  })
  const text = await res.text()
  return { status: res.status, json: text ? JSON.parse(text) : null }
}

import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { v7 } from 'uuid'
import { agreements } from '../../db/schema/agreements'
import { demo, testApp, type TestApp } from '../../test/harness'
import { onPostgres } from '../../test/template-db'
import { documentFixtures, pdfBytes } from '../documents/test-helpers'
import { attachFile, createArticle } from '../articles/test-helpers'
import { createListing, pngBytes, putPhoto } from '../market/test-helpers'
import { createItem, putItemPhoto } from '../lending/test-helpers'
import { eraseOnRequest, newMember } from '../personal-data/test-helpers'
import { formatBytes } from '../../../shared/domain/storage'

/**
 * The storage quota per association (docs/PRODUCT.md "Storage", docs/decisions/0082): what every
 * kind of file takes, the refusal past the quota (EN and DA) that leaves nothing stored, the room
 * a delete or a replacement gives back, and two uploads at once.
 */

/** A file of exactly `size` bytes that passes the type checks: the signature of `head`, then spaces. */
const sized = (head: Uint8Array, size: number) => {
  const bytes = new Uint8Array(size).fill(0x20)
  bytes.set(head.subarray(0, Math.min(head.length, size)))
  return bytes
}
const pdf = (size: number) => ({ name: 'Referat.pdf', bytes: sized(pdfBytes(), size) })
const png = (size: number) => ({ name: 'foto.png', bytes: sized(pngBytes(), size) })

async function setup(env: Record<string, string> = {}) {
  const dir = mkdtempSync(resolve(tmpdir(), 'bk-quota-'))
  const t = await testApp(env, { messages: { attachmentsDir: dir } })
  const f = await documentFixtures(t)
  return { t, f, dir, superadmin: await t.login(demo.superadmin), resident: await t.login(demo.resident) }
}

async function upload(t: TestApp, token: string, companyId: string, file: { name: string; bytes: Uint8Array }, language = 'en') {
  const form = new FormData()
  for (const [k, v] of Object.entries({ companyId, title: 'Referat', category: 'MINUTES', audience: 'MEMBERS' })) form.set(k, v)
  form.set('file', new File([file.bytes as unknown as ArrayBuffer], file.name))
  const res = await t.app.request('/api/documents', {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Accept-Language': language, 'Idempotency-Key': v7() },
    body: form,
  })
  return { status: res.status, json: await res.json() }
}

async function replace(t: TestApp, token: string, id: string, file: { name: string; bytes: Uint8Array }) {
  const form = new FormData()
  form.set('file', new File([file.bytes as unknown as ArrayBuffer], file.name))
  return (await t.app.request(`/api/documents/${id}/file`, { method: 'PUT', headers: { Authorization: `Bearer ${token}` }, body: form })).status
}

const usage = async (t: TestApp, token: string, companyId: string) => {
  const res = await t.call('GET', `/storage/${companyId}`, { token })
  expect(res.status, JSON.stringify(res.json)).toBe(200)
  return res.json as { usedBytes: number; quotaBytes: number; ownQuota: boolean }
}

const setQuota = (t: TestApp, token: string, companyId: string, quotaBytes: number | null) =>
  t.call('PUT', `/storage/${companyId}/quota`, { token, body: { quotaBytes }, headers: { 'Idempotency-Key': v7() } })

/** The stored document files on disk (`<files>/documents/<id>/<fileId>`). */
const filesOnDisk = (dir: string) =>
  readdirSync(join(dir, 'documents'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(join(dir, 'documents', d.name)))

describe('storage quota per association', () => {
  it('counts every kind of file of the association, and no other association’s or the platform’s', async () => {
    const { t, f, superadmin, resident } = await setup()
    const before = await usage(t, f.admin, f.main)
    const otherBefore = await usage(t, superadmin, f.second)
    expect(before).toMatchObject({ quotaBytes: 1024 * 1024 * 1024, ownQuota: false })

    expect((await upload(t, f.admin, f.main, pdf(1000))).status).toBe(201)
    const draft = await t.call('POST', '/messages', {
      token: f.admin,
      headers: { 'Idempotency-Key': v7() },
      body: { companyId: f.main, type: 'MESSAGE', subject: 'Referat', body: 'Se vedhæftet.', recipient: { kind: 'BOARD' } },
    })
    const form = new FormData()
    form.set('file', new File([pdf(2000).bytes as unknown as ArrayBuffer], 'Referat.pdf'))
    const attached = await t.app.request(`/api/messages/${draft.json.id}/attachments`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${f.admin}` },
      body: form,
    })
    expect(attached.status).toBe(201)
    const article = await createArticle(t, f.admin, { companyId: f.main, language: 'da', title: 'Vaskeriet', body: '<p>Tider</p>' })
    expect((await attachFile(t, f.admin, article.json.id, pdf(3000))).status).toBe(200)
    const listing = await createListing(t, resident, { companyId: f.main, kind: 'SWAP', title: 'Cykel', description: 'Rød' })
    expect((await putPhoto(t, resident, listing.json.id, png(4000))).status).toBe(200)
    const item = await createItem(t, resident, { companyId: f.main, title: 'Boremaskine' })
    expect((await putItemPhoto(t, resident, item.json.id, png(5000))).status).toBe(200)
    // The platform's own article (for every association) counts for none of them.
    const platform = await createArticle(t, superadmin, { language: 'en', title: 'For everyone', body: '<p>Hi</p>' })
    expect((await attachFile(t, superadmin, platform.json.id, pdf(6000))).status).toBe(200)

    expect((await usage(t, f.admin, f.main)).usedBytes).toBe(before.usedBytes + 15_000)
    expect((await usage(t, superadmin, f.second)).usedBytes).toBe(otherBefore.usedBytes)
    // A replaced photo counts with its new size only.
    expect((await putPhoto(t, resident, listing.json.id, png(1000))).status).toBe(200)
    expect((await usage(t, f.admin, f.main)).usedBytes).toBe(before.usedBytes + 12_000)
  })

  it('takes a file up to the quota exactly, refuses one byte more in the user’s language with nothing stored, and has room again after a delete', async () => {
    const { t, f, dir, superadmin, resident } = await setup()
    const { usedBytes } = await usage(t, f.admin, f.main)
    expect((await setQuota(t, superadmin, f.main, usedBytes + 3000)).json).toMatchObject({ usedBytes, quotaBytes: usedBytes + 3000, ownQuota: true })

    const atLimit = await upload(t, f.admin, f.main, pdf(3000))
    expect(atLimit.status).toBe(201)
    const stored = filesOnDisk(dir).length
    const documents = (await t.call('GET', `/documents?companyId=${f.main}`, { token: f.admin })).json.length

    const over = await upload(t, f.admin, f.main, pdf(100))
    expect(over.status).toBe(422)
    expect(over.json).toMatchObject({ code: 'BUSINESS_RULE', issues: [{ path: 'file' }] })
    const full = usedBytes + 3000
    expect(over.json.message).toBe(
      `The association’s storage is full: ${formatBytes(full, 'en')} of ${formatBytes(full, 'en')} used, and this file needs 100 bytes. ` +
        'Delete files the association no longer needs, or ask the administrator for more room.',
    )
    expect(over.json.issues[0].message).toBe(over.json.message)
    const da = await upload(t, f.admin, f.main, pdf(100), 'da')
    expect(da.status).toBe(422)
    expect(da.json.message).toBe(
      `Foreningens lagerplads er fuld: ${formatBytes(full, 'da')} af ${formatBytes(full, 'da')} er brugt, og filen fylder ${formatBytes(100, 'da')}. ` +
        'Slet filer, som foreningen ikke længere har brug for, eller bed administratoren om mere plads.',
    )
    // Nothing half-stored: no row, no file.
    expect(filesOnDisk(dir).length).toBe(stored)
    expect((await t.call('GET', `/documents?companyId=${f.main}`, { token: f.admin })).json.length).toBe(documents)
    // A photo is refused the same way.
    const listing = await createListing(t, resident, { companyId: f.main, kind: 'SWAP', title: 'Cykel', description: 'Rød' })
    expect(await putPhoto(t, resident, listing.json.id, png(100))).toMatchObject({ status: 422, json: { code: 'BUSINESS_RULE' } })

    // Replacing the file: the old one's bytes stop counting, so the same size fits and one more byte does not.
    expect(await replace(t, f.admin, atLimit.json.id, pdf(3000))).toBe(200)
    expect(await replace(t, f.admin, atLimit.json.id, pdf(3001))).toBe(422)

    const removed = await t.call('DELETE', `/documents/${atLimit.json.id}`, { token: f.admin, headers: { 'Idempotency-Key': v7() } })
    expect(removed.status).toBe(204)
    expect((await usage(t, f.admin, f.main)).usedBytes).toBe(usedBytes)
    expect((await upload(t, f.admin, f.main, pdf(3000))).status).toBe(201)
  })

  it('of two uploads at once that would pass the quota together, stores one and refuses the other', async () => {
    const { t, f, superadmin } = await setup()
    const { usedBytes } = await usage(t, f.admin, f.main)
    await setQuota(t, superadmin, f.main, usedBytes + 3000)
    const both = await Promise.all([upload(t, f.admin, f.main, pdf(2000)), upload(t, f.admin, f.main, pdf(2000))])
    expect(both.map((r) => r.status).sort()).toEqual([201, 422])
    expect((await usage(t, f.admin, f.main)).usedBytes).toBe(usedBytes + 2000)
  })

  it.skipIf(!onPostgres)('of two uploads at once on two instances (each with its own write lock), stores one and refuses the other', async () => {
    const { t, f, superadmin } = await setup()
    const other = await testApp({}, { database: t.database, messages: { attachmentsDir: mkdtempSync(resolve(tmpdir(), 'bk-quota-')) } })
    for (let round = 0; round < 3; round++) {
      const { usedBytes } = await usage(t, f.admin, f.main)
      await setQuota(t, superadmin, f.main, usedBytes + 3000)
      const both = await Promise.all([upload(t, f.admin, f.main, pdf(2000)), upload(other, f.admin, f.main, pdf(2000))])
      expect(both.map((r) => r.status).sort()).toEqual([201, 422])
      expect((await usage(t, f.admin, f.main)).usedBytes).toBe(usedBytes + 2000)
    }
  })

  it('stops counting an erased member’s photos', async () => {
    const { t, f } = await setup()
    const m = await newMember(t)
    const member = await t.login('zebulon.quixwright@example.dk')
    const before = (await usage(t, f.admin, f.main)).usedBytes
    const listing = await createListing(t, member, { companyId: f.main, kind: 'SWAP', title: 'Stiklinger', description: 'Gratis' })
    expect((await putPhoto(t, member, listing.json.id, png(4000))).status).toBe(200)
    expect((await usage(t, f.admin, f.main)).usedBytes).toBe(before + 4000)
    await t.db.update(agreements).set({ status: 'CLOSED' }).where(eq(agreements.id, m.agreementId)).run()
    // Erased on the member's request, approved by a second pair of eyes (decision 0080).
    const erased = await eraseOnRequest(t, demo.chairman, f.main, m.userId)
    expect(erased.status, JSON.stringify(erased.json)).toBe(200)
    expect((await usage(t, f.admin, f.main)).usedBytes).toBe(before)
  })

  it('has the configured default (STORAGE_QUOTA_MB) unless the super admin sets the association’s own', async () => {
    const { t, f, superadmin } = await setup({ STORAGE_QUOTA_MB: '2' })
    expect(await usage(t, f.admin, f.main)).toMatchObject({ quotaBytes: 2 * 1024 * 1024, ownQuota: false })
    expect((await setQuota(t, superadmin, f.main, 5_000_000)).status).toBe(200)
    expect(await usage(t, f.admin, f.main)).toMatchObject({ quotaBytes: 5_000_000, ownQuota: true })
    expect(await usage(t, superadmin, f.second)).toMatchObject({ quotaBytes: 2 * 1024 * 1024, ownQuota: false })
    expect((await setQuota(t, superadmin, f.main, null)).json).toMatchObject({ quotaBytes: 2 * 1024 * 1024, ownQuota: false })
    for (const bad of [0, 1.5, -1, 2 * 1024 ** 4]) expect((await setQuota(t, superadmin, f.main, bad)).status).toBe(400)
  })
})

import { describe, expect, it } from 'vitest'
import { contentHash, signWebhook, signatureOf, verifyWebhook } from './webhook-signature'

// Computed once with openssl, independently of this code:
//   printf '%s' "$BODY" | openssl dgst -sha256 -binary | base64
//   printf 'POST\n<path>\n<date>;<host>;<hash>' | openssl dgst -sha256 -hmac 'test-secret-1234' -binary | base64
const body =
  '{"eventType":"recurring.charge-captured.v1","agreementId":"agr_5kSeqz","chargeId":"chr-1","amount":45000,"occurred":"2026-11-23T09:00:00Z","msn":"123456"}'
const vector = {
  secret: 'test-secret-1234',
  pathAndQuery: '/api/webhooks/vipps/p1?x=1',
  host: 'boligkasse.example:443',
  date: 'Mon, 23 Nov 2026 09:00:00 GMT',
  hash: 'EuzI/nkCJyr1QR/8xW04b7kv1Pqoy9UIi8YRD/YTkbc=',
  signature: '+0d7j6adS15Y3gLlM4j6zVLrWEkPTjY9kiBSLijAcz4=',
}
const now = new Date('2026-11-23T09:01:00Z')
const request = (over: Partial<{ body: string; date: string; hash: string; signature: string }> = {}) => ({
  pathAndQuery: vector.pathAndQuery,
  host: vector.host,
  body: over.body ?? body,
  headers: {
    date: over.date ?? vector.date,
    contentSha: over.hash ?? vector.hash,
    authorization: `HMAC-SHA256 SignedHeaders=x-ms-date;host;x-ms-content-sha256&Signature=${over.signature ?? vector.signature}`,
  },
})

describe('Vipps webhook signature', () => {
  it('matches the fixed test vector', () => {
    expect(contentHash(body)).toBe(vector.hash)
    expect(signatureOf(vector.secret, vector.pathAndQuery, vector.date, vector.host, vector.hash)).toBe(vector.signature)
    expect(verifyWebhook(vector.secret, request(), now)).toEqual({ ok: true })
  })

  it('refuses a wrong secret, an altered body and a stale date', () => {
    expect(verifyWebhook('another-secret', request(), now)).toEqual({ ok: false, reason: 'signature' })
    expect(verifyWebhook(vector.secret, request({ body: body.replace('45000', '45001') }), now)).toEqual({ ok: false, reason: 'content-hash' })
    expect(verifyWebhook(vector.secret, request(), new Date('2026-11-23T09:10:00Z'))).toEqual({ ok: false, reason: 'stale-date' })
    expect(verifyWebhook(vector.secret, { ...request(), headers: { date: vector.date } }, now)).toEqual({ ok: false, reason: 'missing-headers' })
  })

  it('signs what it verifies', () => {
    const url = 'http://localhost:3000/api/webhooks/vipps/abc'
    const h = signWebhook('s3cret', url, body, now)
    const res = verifyWebhook(
      's3cret',
      {
        pathAndQuery: '/api/webhooks/vipps/abc',
        host: 'localhost:3000',
        body,
        headers: { date: h['x-ms-date'], contentSha: h['x-ms-content-sha256'], authorization: h.Authorization },
      },
      now,
    )
    expect(res).toEqual({ ok: true })
  })
})

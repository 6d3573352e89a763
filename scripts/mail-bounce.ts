/**
 * Tells a running server that a mail bounced, as the mail provider would (docs/decisions/0091):
 * a notice signed with MAIL_WEBHOOK_SECRET posted to /api/webhooks/mail-bounce. For trying the
 * bounce handling locally, where mail only becomes .eml files and nothing ever bounces.
 *
 *   MAIL_WEBHOOK_SECRET=… node --import tsx scripts/mail-bounce.ts someone@example.dk [hard|soft|complaint] [http://localhost:3000]
 */
import { randomUUID } from 'node:crypto'
import { signBounce } from '../server/features/invitations/bounce-signature'

const [email, kind = 'hard', base = process.env.PUBLIC_URL ?? 'http://localhost:3000'] = process.argv.slice(2)
const secret = process.env.MAIL_WEBHOOK_SECRET
if (!email || !secret || !['hard', 'soft', 'complaint'].includes(kind)) {
  console.error('usage: MAIL_WEBHOOK_SECRET=… node --import tsx scripts/mail-bounce.ts <email> [hard|soft|complaint] [server url]')
  process.exit(2)
}
const body = JSON.stringify(
  kind === 'complaint' ? { type: 'complaint', email } : { type: 'bounce', bounceType: kind, email, reason: '550 5.1.1 user unknown (scripts/mail-bounce.ts)' },
)
const res = await fetch(`${base.replace(/\/$/, '')}/api/webhooks/mail-bounce`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', ...signBounce(secret, randomUUID(), body, new Date()) },
  body,
})
console.log(res.status, await res.text())
process.exit(res.ok ? 0 : 1)

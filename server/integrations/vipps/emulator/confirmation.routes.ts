import { Hono } from 'hono'
import { pickLang, t } from './emulator.i18n'
import { normalizePhone } from './emulator.ids'
import type { AgreementRecord, EmulatorState } from './emulator.state'
import { otherLangHref } from './page.layout'
import { renderConfirmationPage, renderConfirmationProblem } from './confirmation.page'
import type { RecurringService } from './recurring.service'

/**
 * GET shows the landing page of a PENDING agreement; POST approves (→ ACTIVE) or rejects
 * (→ STOPPED) it and sends the member back to `merchantRedirectUrl` with 303, as Vipps does after
 * the app. Unknown, expired or already handled agreements get an explanatory page.
 */
export function confirmationRoutes(deps: { state: EmulatorState; recurring: RecurringService }) {
  const { state, recurring } = deps
  return new Hono()
    .get('/confirm/:agreementId', (c) => {
      const lang = pickLang(c.req.query('lang'), c.req.header('Accept-Language'))
      const a = state.data.agreements[c.req.param('agreementId')]
      if (!a || a.status !== 'PENDING') return c.html(renderConfirmationProblem(lang, a), problemStatus(a))
      return c.html(renderConfirmationPage({ lang, agreement: a, phoneNumber: a.phoneNumber ?? '', switchHref: otherLangHref(c.req.query(), lang) }))
    })
    .post('/confirm/:agreementId', async (c) => {
      const form = await c.req.parseBody()
      const lang = pickLang(typeof form.lang === 'string' ? form.lang : undefined, c.req.header('Accept-Language'))
      const a = state.data.agreements[c.req.param('agreementId')]
      if (!a || a.status !== 'PENDING') return c.html(renderConfirmationProblem(lang, a), problemStatus(a))
      if (form.action === 'reject') {
        recurring.reject(a.id)
        return c.redirect(a.merchantRedirectUrl, 303)
      }
      const typed = typeof form.phoneNumber === 'string' ? form.phoneNumber.trim() : ''
      const phone = typed ? normalizePhone(typed) : null
      if (typed && !phone) {
        const page = renderConfirmationPage({ lang, agreement: a, phoneNumber: typed, error: t(lang, 'invalidPhone') })
        return c.html(page, 400)
      }
      recurring.approve(a.id, phone)
      return c.redirect(a.merchantRedirectUrl, 303)
    })
}

/** Unknown 404, expired 410 (gone for good), already approved or stopped 409. */
const problemStatus = (a: AgreementRecord | undefined) =>
  !a ? 404
  : a.status === 'EXPIRED' ? 410
  : 409

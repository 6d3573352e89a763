import { esc, renderMessagePage, renderPage } from './page.layout'
import { formatMoney, intervalPhrase, t, type Lang } from './emulator.i18n'
import type { AgreementRecord } from './emulator.state'

/**
 * The landing page behind `vippsConfirmationUrl`, where the member approves or rejects a PENDING
 * agreement (https://developer.vippsmobilepay.com/docs/knowledge-base/landing-page/). Both buttons
 * post back to the same address; the phone number stands in for logging in to the app.
 */
export function renderConfirmationPage(input: { lang: Lang; agreement: AgreementRecord; phoneNumber: string; error?: string; switchHref?: string }): string {
  const { lang, agreement: a, phoneNumber, error, switchHref } = input
  const interval = intervalPhrase(lang, a.interval.unit, a.interval.count)
  const price =
    a.pricing.type === 'LEGACY' ?
      t(lang, 'priceLine', { amount: formatMoney(lang, a.pricing.amount ?? 0, a.pricing.currency), interval })
    : t(lang, 'variablePriceLine', { amount: formatMoney(lang, a.pricing.suggestedMaxAmount ?? 0, a.pricing.currency), interval })
  const body = `<h1>${esc(t(lang, 'confirmTitle'))}</h1>
<p>${esc(t(lang, 'confirmLead'))}</p>
<dl>
<dt>${esc(t(lang, 'product'))}</dt><dd>${esc(a.productName)}</dd>
<dt>${esc(t(lang, 'price'))}</dt><dd>${esc(price)}</dd>
</dl>
${a.productDescription ? `<p>${esc(a.productDescription)}</p>` : ''}
<form method="post" action="${esc(a.id)}">
<input type="hidden" name="lang" value="${lang}">
<label for="phoneNumber">${esc(t(lang, 'phoneLabel'))}</label>
<input id="phoneNumber" name="phoneNumber" type="tel" inputmode="tel" autocomplete="tel" value="${esc(phoneNumber)}"${error ? ' aria-invalid="true" aria-describedby="phone-error"' : ' aria-describedby="phone-hint"'}>
${error ? `<p id="phone-error" class="error">${esc(error)}</p>` : `<p id="phone-hint" class="hint">${esc(t(lang, 'phoneHint'))}</p>`}
<div class="actions">
<button type="submit" name="action" value="approve" class="primary">${esc(t(lang, 'approve'))}</button>
<button type="submit" name="action" value="reject" class="secondary">${esc(t(lang, 'reject'))}</button>
</div>
</form>`
  return renderPage({ lang, title: t(lang, 'confirmTitle'), body, switchHref })
}

/** Unknown, expired, or already approved/stopped: say so, and offer the way back when known. */
export function renderConfirmationProblem(lang: Lang, agreement: AgreementRecord | undefined): string {
  if (!agreement) return renderMessagePage(lang, t(lang, 'notFoundTitle'), t(lang, 'notFoundText'))
  const back = { href: agreement.merchantRedirectUrl, label: t(lang, 'backToMerchant') }
  if (agreement.status === 'EXPIRED') return renderMessagePage(lang, t(lang, 'expiredTitle'), t(lang, 'expiredText'), back)
  const status = t(lang, agreement.status === 'ACTIVE' ? 'statusActive' : 'statusStopped')
  return renderMessagePage(lang, t(lang, 'handledTitle'), t(lang, 'handledText', { status }), back)
}

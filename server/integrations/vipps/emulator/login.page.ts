import { t, type Lang } from './emulator.i18n'
import { normalizePhone } from './emulator.ids'
import type { LoginUser } from './login.service'
import { esc, renderPage } from './page.layout'

/**
 * The sign-in page that stands in for the Vipps MobilePay app: one button per demo user, a free
 * phone-number field, and Cancel. Every form posts the pending request id back to `auth`
 * (relative to the page, so it works wherever the emulator is mounted).
 */
export function renderLoginPage(input: {
  lang: Lang
  requestId: string
  users: LoginUser[]
  phoneNumber?: string
  error?: string
  switchHref?: string
}): string {
  const { lang, requestId, users, error, switchHref } = input
  const hidden = `<input type="hidden" name="request" value="${esc(requestId)}"><input type="hidden" name="lang" value="${lang}">`
  const demo =
    users.length ?
      `<h2>${esc(t(lang, 'demoUsers'))}</h2>
<form method="post" action="auth">${hidden}
<ul class="users">
${users.map((u) => `<li><button type="submit" name="phoneNumber" value="${esc(u.phoneNumber)}"><span>${esc(u.name ?? u.phoneNumber)}</span><span>${esc(displayPhone(u.phoneNumber))}</span></button></li>`).join('\n')}
</ul>
</form>`
    : ''
  const body = `<h1>${esc(t(lang, 'loginTitle'))}</h1>
<p>${esc(t(lang, 'loginLead'))}</p>
${demo}
<form method="post" action="auth">${hidden}
<label for="phoneNumber">${esc(t(lang, users.length ? 'otherNumber' : 'phoneLabel'))}</label>
<input id="phoneNumber" name="phoneNumber" type="tel" inputmode="tel" autocomplete="tel" required value="${esc(input.phoneNumber ?? '')}"${error ? ' aria-invalid="true" aria-describedby="phone-error"' : ' aria-describedby="phone-hint"'}>
${error ? `<p id="phone-error" class="error">${esc(error)}</p>` : `<p id="phone-hint" class="hint">${esc(t(lang, 'phoneHint'))}</p>`}
<div class="actions"><button type="submit" class="primary">${esc(t(lang, 'continue'))}</button></div>
</form>
<form method="post" action="auth">${hidden}<button type="submit" name="cancel" value="1" class="link">${esc(t(lang, 'cancel'))}</button></form>`
  return renderPage({ lang, title: t(lang, 'loginTitle'), body, switchHref })
}

/** +45 12 34 56 78 for Danish numbers, +<digits> otherwise. */
function displayPhone(phoneNumber: string): string {
  const digits = normalizePhone(phoneNumber) ?? phoneNumber
  const dk = /^45(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(digits)
  return dk ? `+45 ${dk.slice(1).join(' ')}` : `+${digits}`
}

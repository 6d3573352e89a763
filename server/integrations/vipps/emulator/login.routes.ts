import { Hono } from 'hono'
import { pickLang, t } from './emulator.i18n'
import type { LoginService } from './login.service'
import { renderLoginPage } from './login.page'
import { otherLangHref, renderMessagePage } from './page.layout'

/**
 * Vipps Login endpoints at the real paths (issuer `…/access-management-1.0/access/`), plus the
 * discovery document and JWKS also at the emulator's root for convenience.
 */
export function loginRoutes(login: LoginService) {
  const access = '/access-management-1.0/access'
  const noStore = { 'Cache-Control': 'no-store', Pragma: 'no-cache' }
  return new Hono()
    .get('/.well-known/openid-configuration', (c) => c.json(login.discovery()))
    .get(`${access}/.well-known/openid-configuration`, (c) => c.json(login.discovery()))
    .get('/.well-known/jwks.json', (c) => c.json(login.jwks()))
    .get(`${access}/.well-known/jwks.json`, (c) => c.json(login.jwks()))
    .get(`${access}/oauth2/auth`, (c) => {
      const lang = pickLang(c.req.query('lang') ?? c.req.query('ui_locales')?.split(' ')[0], c.req.header('Accept-Language'))
      const started = login.begin(c.req.query())
      if (started.kind === 'redirect') return c.redirect(started.location, 302)
      if (started.kind === 'error') return c.html(renderMessagePage(lang, t(lang, 'loginErrorTitle'), started.message), 400)
      return c.html(renderLoginPage({ lang, requestId: started.requestId, users: login.users(), switchHref: otherLangHref(c.req.query(), lang) }))
    })
    .post(`${access}/oauth2/auth`, async (c) => {
      const form = await c.req.parseBody()
      const field = (name: string) => (typeof form[name] === 'string' ? (form[name] as string) : '')
      const lang = pickLang(field('lang') || undefined, c.req.header('Accept-Language'))
      const result = login.choose(field('request'), form.cancel ? null : field('phoneNumber'))
      if (result.kind === 'redirect') return c.redirect(result.location, 302)
      if (result.kind === 'expired') return c.html(renderMessagePage(lang, t(lang, 'loginErrorTitle'), t(lang, 'loginExpired')), 400)
      const page = renderLoginPage({
        lang,
        requestId: field('request'),
        users: login.users(),
        phoneNumber: field('phoneNumber'),
        error: t(lang, 'invalidPhone'),
      })
      return c.html(page, 400)
    })
    .post(`${access}/oauth2/token`, async (c) => {
      const form = Object.fromEntries(Object.entries(await c.req.parseBody()).filter((e): e is [string, string] => typeof e[1] === 'string'))
      const result = login.token(form, c.req.header('Authorization'))
      if (result.status === 401) c.header('WWW-Authenticate', 'Basic realm="vipps-emulator"')
      return c.json(result.body, result.status, noStore)
    })
    .get('/vipps-userinfo-api/userinfo', (c) => {
      const result = login.userinfo(c.req.header('Authorization'))
      if (result.status === 401) c.header('WWW-Authenticate', `Bearer error="${result.body.error}"`)
      return c.json(result.body, result.status, noStore)
    })
}

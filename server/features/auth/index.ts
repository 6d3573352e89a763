import { defineModule } from '../../kernel/module'
import { oidcLogins } from '../../db/schema/oidc'
import { createAuthService, type AuthService } from './auth.service'
import { createIdentityService, type IdentityService } from './identity.service'
import { createVippsLoginService, type VippsLoginService } from './vipps-login.service'
import { authRoutes } from './auth.routes'

declare module '../../kernel/module' {
  interface Services {
    auth: AuthService
    identity: IdentityService
    vippsLogin: VippsLoginService
  }
}

/** Sign-in (password, token link, Vipps Login), sign-out, password reset and proven identifiers. */
export const authModule = defineModule({
  name: 'auth',
  tables: [oidcLogins],
  services: {
    auth: (s, k) =>
      createAuthService({
        db: k.db,
        clock: k.clock,
        lock: k.lock,
        publicUrl: k.config.publicUrl,
        tokenLoginEnabled: !k.config.isProduction,
        notifications: s.notifications,
        users: s.users,
        ...k.options.auth,
      }),
    identity: (s, k) => createIdentityService({ db: k.db, clock: k.clock, publicUrl: k.config.publicUrl, users: s.users, sleep: k.options.auth?.sleep }),
    vippsLogin: (s, k) =>
      createVippsLoginService({
        db: k.db,
        clock: k.clock,
        lock: k.lock,
        auth: s.auth,
        identity: s.identity,
        login: k.options.vippsLogin,
        log: k.log,
        users: s.users,
      }),
  },
  routes: (s) => [authRoutes(s.auth, s.vippsLogin, s.identity)],
})

// What other features use of this one (docs/ARCHITECTURE.md "Layers": a feature is reached through its entry).
export type { AuthService } from './auth.service'
export { hashPassword } from './passwords'
export type { IdentityService } from './identity.service'

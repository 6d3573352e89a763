import { defineModule } from '../../kernel/module'
import { createAccountService, type AccountService } from './account.service'
import { accountRoutes } from './account.routes'

declare module '../../kernel/module' {
  interface Services {
    account: AccountService
  }
}

/** The signed-in user's own account: profile, sign-in methods, current company, user search for staff. */
export const accountModule = defineModule({
  name: 'account',
  tables: [],
  services: {
    account: (s, k) => createAccountService({ db: k.db, clock: k.clock, auth: s.auth, identity: s.identity, notifications: s.notifications, users: s.users }),
  },
  routes: (s) => [accountRoutes(s.account)],
})

import { defineModule } from '../../kernel/module'
import { authMethods, emailConfirmations, passwordResets, sessions, users } from '../../db/schema/users'
import { createUsersService, type UsersService } from './users.service'

declare module '../../kernel/module' {
  interface Services {
    users: UsersService
  }
}

/** Users, their sign-in methods and sessions, and the actor every request carries. */
export const usersModule = defineModule({
  name: 'users',
  tables: [users, authMethods, sessions, passwordResets, emailConfirmations],
  services: { users: (_s, k) => createUsersService({ db: k.db }) },
})

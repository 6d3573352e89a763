import { defineModule } from '../../kernel/module'
import { authMethods, emailConfirmations, passwordResets, sessions, users } from '../../db/schema/users'
import type { Db } from '../../db/client'
import { usersRepository } from './users.repository'
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

// What other features use of this one (docs/ARCHITECTURE.md "Layers": a feature is reached through its entry).
export type { UserRow, UsersService } from './users.service'

/** Whether the user has (or had) an agreement with the company: who else may see it (companies' scope). */
export const hasAgreementWith = (db: Db, userId: string, companyId: string): Promise<boolean> => usersRepository.hasAgreementWith(db, userId, companyId)

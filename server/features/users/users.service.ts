import type { Db } from '../../db/client'
import type { Actor } from '../../access/actor'
import type { CompanyMembership } from '../../../shared/domain/roles'
import { ActorCache } from './actor-cache'
import { usersRepository, type NewUser, type UserRow } from './users.repository'

export type { UserRow }
export type UsersService = ReturnType<typeof createUsersService>

/** Reading users as actors; other features call this instead of the repository. */
export function createUsersService(deps: { db: Db }) {
  const { db } = deps
  /** Resolved actors per token (authentication reads and fills it); every writer of an actor's parts invalidates it. */
  const actors = new ActorCache()
  return {
    actors,
    /** After a change to what an actor holds (a membership, a session): the user's next request reads it afresh. */
    actorChanged: (userId: string): void => actors.invalidateUser(userId, db),
    /** After a change to many actors at once (a company's name or status). */
    actorsChanged: (): void => actors.invalidateAll(db),
    byId: async (id: string): Promise<UserRow | undefined> => await usersRepository.byId(db, id),
    byEmail: async (email: string): Promise<UserRow | undefined> => await usersRepository.byEmail(db, email),
    memberships: async (userId: string): Promise<CompanyMembership[]> => await usersRepository.memberships(db, userId),
    byMobileKey: async (key: string): Promise<UserRow | undefined> => await usersRepository.byMobileKey(db, key),
    /** By any of the user's e-mail addresses (the profile's or a sign-in's). */
    byAnyEmail: async (email: string): Promise<UserRow | undefined> => await usersRepository.byAnyEmail(db, email),
    searchByEmailPrefixAmong: async (prefix: string, staffOf: readonly string[] | 'all'): Promise<UserRow[]> =>
      await usersRepository.searchByEmailPrefixAmong(db, prefix, staffOf),
    insert: async (user: NewUser): Promise<void> => await usersRepository.insert(db, user),
    async update(id: string, changes: Partial<NewUser>): Promise<void> {
      await usersRepository.update(db, id, changes)
      actors.invalidateUser(id, db)
    },
    /** Whether the user is staff (any company role) of one of these companies. */
    isStaffOfAny: async (userId: string, companyIds: readonly string[]): Promise<boolean> => await usersRepository.isStaffOfAny(db, userId, companyIds),
    hasAgreementWith: async (userId: string, companyId: string): Promise<boolean> => await usersRepository.hasAgreementWith(db, userId, companyId),

    /** The actor for a session; the current company falls back to the first membership. */
    async loadActor(userId: string, sessionId: string): Promise<Actor | undefined> {
      const [user, companies] = await Promise.all([usersRepository.actorUser(db, userId), usersRepository.memberships(db, userId)])
      if (!user) return undefined
      const current = companies.find((c) => c.id === user.currentCompanyId) ?? companies[0]
      return {
        userId: user.id,
        sessionId,
        fullName: user.fullName,
        emailAddress: user.emailAddress,
        language: user.language,
        systemRole: user.systemRole,
        currentCompanyId: current?.id ?? null,
        companies,
      }
    },
  }
}

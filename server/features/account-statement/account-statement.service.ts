import { snapshot, type Database_ } from '../../db/client'
import { DomainError, forbidden, notFound } from '../../errors'
import { todayInCopenhagen, type Clock } from '../../lib/clock'
import type { AccountStatementResponse } from '../../../shared/contract/account-statement'
import { accountStatement, statementPeriod } from '../../../shared/domain/account-statement'
import { messages } from '../../../shared/i18n-messages'
import type { Actor } from '../../access/actor'
import { assertCompanyInScope } from '../companies'
import { isSuperAdmin, roleIn } from '../../access/policy'
import { isCompanyAdminStaff } from '../../../shared/domain/roles'
import { accountStatementRepository as repo } from './account-statement.repository'

export type AccountStatementService = ReturnType<typeof createAccountStatementService>

/**
 * Account statements (kontokort, decision 0068): a member reads their own in an
 * association they have an account with; the association's staff (every role, as they read its
 * invoices) and the super admin read any of its members'. The rows are shared/domain/account-statement.ts's.
 */
export function createAccountStatementService(deps: { database: Database_; clock: Clock }) {
  const thisYear = () => Number(todayInCopenhagen(deps.clock).slice(0, 4))

  /** The statement's period (decision 0081): an interim statement's last day must be in its year. */
  function periodOf(year: number, through: string | undefined) {
    if (through && through.slice(0, 4) !== String(year))
      throw new DomainError('VALIDATION_FAILED', messages.statementThroughInvalid.id, {
        issues: [{ path: 'through', message: messages.statementThroughInvalid.id }],
      })
    return statementPeriod(year, todayInCopenhagen(deps.clock), through)
  }

  async function statementOf(companyId: string, userId: string, year: number | undefined, through?: string): Promise<AccountStatementResponse> {
    const { db } = deps.database
    const y = year ?? thisYear()
    const period = periodOf(y, through)
    // The documents and the charges from one moment (a payment between the reads would be counted half).
    const [company, user, documents, charges] = await snapshot(db, async () => [
      await repo.company(db, companyId),
      await repo.user(db, userId),
      await repo.documents(db, userId, companyId),
      await repo.failedCharges(db, userId, companyId),
    ])
    if (!company || !user) throw notFound(messages.statementMemberNotFound.id)
    const s = accountStatement(documents, charges, period)
    return { companyId, companyName: company.name, member: { userId, name: user.name }, year: y, interim: period.interim, ...s }
  }

  return {
    /** The caller's own statement in an association they are staff of or have an account with; else 404. */
    async own(actor: Actor, companyId: string, year: number | undefined, through?: string): Promise<AccountStatementResponse> {
      const { db } = deps.database
      await assertCompanyInScope(db, actor, companyId, async () => await repo.hasAccount(db, actor.userId, companyId))
      return await statementOf(companyId, actor.userId, year, through)
    },

    /**
     * A member's statement for the association's admin staff (docs/API.md "What each role reads"):
     * 404 outside it and for anyone without an account there; a board member hears why not (403).
     */
    async ofMember(actor: Actor, companyId: string, userId: string, year: number | undefined, through?: string): Promise<AccountStatementResponse> {
      const { db } = deps.database
      const role = roleIn(actor, companyId)
      if (!isSuperAdmin(actor) && role === undefined) throw notFound(messages.companyNotFound.id)
      if (role && !isCompanyAdminStaff(role)) throw forbidden(messages.statementStaffOnly.id)
      if (!(await repo.hasAccount(db, userId, companyId))) throw notFound(messages.statementMemberNotFound.id)
      return await statementOf(companyId, userId, year, through)
    },
  }
}

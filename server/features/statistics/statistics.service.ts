import { snapshot, type Database_ } from '../../db/client'
import { DomainError, notFound } from '../../errors'
import { todayInCopenhagen, type Clock } from '../../lib/clock'
import { statisticsMessages, type StatisticsQuery } from '../../../shared/contract/statistics'
import { resolvePeriod } from '../../../shared/domain/statistics-period'
import { messages } from '../../../shared/i18n-messages'
import type { Actor } from '../../access/actor'
import { assertCompanyAdminStaff } from '../../access/policy'
import { statisticsRepository as repo } from './statistics.repository'
import { statisticsJson } from './statistics-json'

export type StatisticsService = ReturnType<typeof createStatisticsService>

/**
 * Charge statistics (docs/PRODUCT.md §2/§3, docs/decisions/0032-charge-statistics.md) for company admin staff (administrator, accountant,
 * chairman) and the super admin; another company's answers 404. The period rules are
 * shared/domain/statistics-period.ts, what counts is shared/domain/statistics.ts.
 */
export function createStatisticsService(deps: { database: Database_; clock: Clock }) {
  return {
    /**
     * The answer (`ChargeStatistics` of shared/contract/statistics.ts) as its JSON text: the
     * agreements and the rows are written as text by SQLite and `statisticsJson`, never as objects
     * (docs/decisions/0056-statistics-in-address-order.md). The bytes are those of
     * `JSON.stringify({ agreements, statistics, type, ...period })`.
     */
    async chargeStatisticsJson(actor: Actor, companyId: string, query: StatisticsQuery): Promise<string> {
      assertCompanyAdminStaff(actor, companyId)
      // The connection in use: the read-only one during a GET (decision 0049).
      const { db } = deps.database
      const company = await repo.company(db, companyId)
      // As GET /company/{id} answers the super admin for an id that does not exist.
      if (!company) throw notFound(messages.companyNotFound.id)
      // Dates without a type are a custom period (the earlier client sends both, docs/PRODUCT.md §7).
      const type = query.type ?? (query.startDate || query.endDate ? 'custom' : 'current')
      const period = resolvePeriod({ type, startDate: query.startDate, endDate: query.endDate }, todayInCopenhagen(deps.clock), company)
      if (period === 'heating-water-missing') throw new DomainError('BUSINESS_RULE', statisticsMessages.heatingWaterMissing.id)
      if (period === 'custom-dates-missing')
        throw new DomainError('VALIDATION_FAILED', statisticsMessages.customDatesRequired.id, {
          issues: [{ path: 'endDate', message: statisticsMessages.customDatesRequired.id }],
        })
      const rest = JSON.stringify({ type, ...period })
      // The agreements and every part of the sums from one moment (the reads are awaited one by one).
      const [agreements, parts] = await snapshot(db, async () => [
        await repo.agreementsJson(db, companyId),
        await repo.sums(db, companyId, period.startDate, period.endDate, query.agreementId),
      ])
      return `{"agreements":${agreements},"statistics":${statisticsJson(parts)},${rest.slice(1)}`
    },
  }
}

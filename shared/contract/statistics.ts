import { z } from 'zod'
import { statisticsCategories } from '../domain/statistics'
import { isIsoDate, statisticsPeriodTypes } from '../domain/statistics-period'

/**
 * Charge statistics (docs/PRODUCT.md §3 "Charge statistics", §7 `GET /company/{id}/charges-statistics`,
 * decision 0032). Amounts are integer øre actually withdrawn (executed charges minus executed refunds,
 * by payment date; shared/domain/statistics.ts says exactly what counts); dates `YYYY-MM-DD`.
 */
export const statisticsMessages = {
  customDatesRequired: /*i18n*/ { id: 'Please choose a start date and an end date on or after it' },
  heatingWaterMissing: /*i18n*/ { id: 'The heating and water period is not set for this company' },
}

const IsoDate = z.string().refine(isIsoDate, { message: 'Please enter a valid date' }).meta({ description: 'YYYY-MM-DD', example: '2026-01-01' })

export const StatisticsPeriodType = z.enum(statisticsPeriodTypes)
export type StatisticsPeriodType = z.infer<typeof StatisticsPeriodType>

export const StatisticsQuery = z.object({
  agreementId: z.uuid().optional().meta({ description: "One agreement's charges; all of the company's when absent" }),
  type: StatisticsPeriodType.optional().meta({
    description:
      "`current` (1 Jan–31 Dec this year, the default), `previous` (last year), `heating-water` (the company's stored period: the latest one that has started), `custom` (startDate and endDate). Dates given without a type mean `custom`.",
  }),
  startDate: IsoDate.optional(),
  endDate: IsoDate.optional(),
})
export type StatisticsQuery = z.infer<typeof StatisticsQuery>

const amount = z.number().int()
export const CategoryAmounts = z.object(
  Object.fromEntries(statisticsCategories.map((c) => [c, amount])) as Record<(typeof statisticsCategories)[number], typeof amount>,
)

export const StatisticsRow = z
  .object({
    /** The member address printed on the documents; '' when they have none. */
    consumerAddress: z.string(),
    parts: CategoryAmounts,
    total: amount,
  })
  .meta({ id: 'ChargeStatisticsRow' })

export const ChargeStatistics = z
  .object({
    agreements: z
      .array(z.object({ externalId: z.string(), id: z.uuid() }))
      .meta({ description: "The company's agreements for the filter, sorted numerically by externalId" }),
    statistics: z.object({
      charges: z.array(StatisticsRow),
      summary: CategoryAmounts.extend({ total: amount }),
    }),
    type: StatisticsPeriodType,
    startDate: z.string(),
    endDate: z.string(),
  })
  .meta({ id: 'ChargeStatistics' })
export type ChargeStatistics = z.infer<typeof ChargeStatistics>

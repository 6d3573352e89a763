import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { StatisticsCategory } from '../../../shared/domain/statistics'

/** The charge statistics' category names: the Charges screen's columns and the dashboard's charts. */
export const categoryLabels: Record<StatisticsCategory, MessageDescriptor> = {
  'hot-and-cold-water': msg`Hot and cold water`,
  'hot-water': msg`Hot water`,
  'cold-water': msg`Cold water`,
  heating: msg`Heating`,
  addition: msg`Addition`,
  'common-expenses': msg`Common expenses`,
  fee: msg`Fee`,
  other: msg`Other`,
}

import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { HouseholdType, ResidentKind } from '../../../shared/domain/household'

export const householdTypeLabels: Record<HouseholdType, MessageDescriptor> = {
  APARTMENT: msg`Apartment`,
  HOUSE: msg`House`,
  COMMERCIAL: msg`Commercial`,
  OTHER: msg`Other`,
}

export const residentKindLabels: Record<ResidentKind, MessageDescriptor> = {
  OWNER: msg`Owner`,
  TENANT: msg`Tenant`,
}

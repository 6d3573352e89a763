import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { CompanyStatus } from '../../../shared/domain/company-status'
import type { BadgeVariant } from '../../components/ui/Badge'

/** A company's status as staff read it (docs/decisions/0014-company-life-cycle.md). */
export const companyStatusLabels: Record<CompanyStatus, MessageDescriptor> = {
  NEW: msg({ message: 'New', context: 'company status' }),
  ACTIVE: msg({ message: 'Active', context: 'company status' }),
  SUSPENDED: msg({ message: 'Suspended', context: 'company status' }),
  DEACTIVATED: msg({ message: 'Deactivated', context: 'company status' }),
  DELETED: msg({ message: 'Deleted', context: 'company status' }),
}

export const companyStatusBadge: Record<CompanyStatus, BadgeVariant> = {
  NEW: 'info',
  ACTIVE: 'success',
  SUSPENDED: 'warning',
  DEACTIVATED: 'neutral',
  DELETED: 'error',
}

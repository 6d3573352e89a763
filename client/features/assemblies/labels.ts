import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { AssemblyStatus, ProposalStatus } from '../../../shared/contract/assemblies'
import type { BadgeVariant } from '../../components/ui/Badge'

export const assemblyStatusLabels: Record<AssemblyStatus, MessageDescriptor> = {
  PLANNED: msg`Planned`,
  HELD: msg`Held`,
  CANCELLED: msg`Cancelled`,
}

export const assemblyStatusBadge: Record<AssemblyStatus, BadgeVariant> = { PLANNED: 'info', HELD: 'success', CANCELLED: 'neutral' }

export const proposalStatusLabels: Record<ProposalStatus, MessageDescriptor> = {
  SUBMITTED: msg`Submitted`,
  WITHDRAWN: msg`Withdrawn`,
}

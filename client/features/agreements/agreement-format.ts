import type { AgreementStatus } from '../../../shared/contract/agreements'
import { agreementStatusColour } from '../../../shared/domain/agreement-status'
import type { BadgeVariant } from '../../components/ui/Badge'

/** docs/PRODUCT.md §2: dates in the agreement list read DD / MM / YYYY (en-GB), or '-' when there is none. */
export function slashDate(isoDate: string | null | undefined): string {
  const m = isoDate ? /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate) : null
  return m ? `${m[3]} / ${m[2]} / ${m[1]}` : '-'
}

/** docs/PRODUCT.md §4 colours as badge variants: green, yellow, red (overdue is always red). */
const badgeOfColour = { green: 'success', yellow: 'warning', red: 'error' } as const satisfies Record<string, BadgeVariant>

export const statusBadge = (status: AgreementStatus, overdue: boolean): BadgeVariant => badgeOfColour[agreementStatusColour(status, overdue)]

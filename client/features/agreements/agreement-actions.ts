/**
 * The member's answer to a new agreement (docs/PRODUCT.md §4): accepting opens Vipps MobilePay, so both need
 * the network and are sent directly rather than queued.
 */
import { AcceptAgreementResponse } from '../../../shared/contract/agreements'
import { api, type ActionKey } from '../../lib/api'

/** POST /agreement/{id}/accept → the Vipps MobilePay page where the member approves. */
export const acceptAgreement = (id: string, action: ActionKey) => api('POST', `/agreement/${id}/accept`, { schema: AcceptAgreementResponse, action })

/** POST /agreement/{id}/reject */
export const rejectAgreement = (id: string, action: ActionKey) => api('POST', `/agreement/${id}/reject`, { action })

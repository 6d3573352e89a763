/**
 * An anonymous message to the board (docs/PRODUCT.md §5): sent at once and never queued, so nothing of it
 * stays on this device (not in the outbox, not in the local copy). Offline it fails, and the form
 * says so.
 */
import type { AnonymousMessageRequest } from '../../../shared/contract/messages'
import { api } from '../../lib/api'

export const sendAnonymous = (body: AnonymousMessageRequest): Promise<unknown> => api('POST', '/messages/anonymous', { body })

/**
 * What the payment provider screens send straight to the server (not queued): creating a
 * provider and changing its config carry secrets, which are never written to the browser's
 * database; the connection test and webhooks go to Vipps MobilePay and need the connection.
 * Each call keeps its Idempotency-Key across retries through the caller's `ActionKey`.
 */
import { z } from 'zod'
import { PaymentProvider, TestConnectionResponse, type CreateProviderRequest, type UpdateProviderRequest } from '../../../shared/contract/payment-providers'
import { Webhook, type RegisterWebhookRequest } from '../../../shared/contract/webhooks'
import { api, type ActionKey } from '../../lib/api'
import { providerPath } from './provider-mutations'

export const createProvider = (companyId: string, body: CreateProviderRequest, action: ActionKey) =>
  api('POST', `/company/${companyId}/payment-providers`, { body, schema: PaymentProvider, action })

/** PATCH of the config, on the version the form was opened on (If-Match). */
export const updateProviderConfig = (provider: { companyId: string; id: string; _version: number }, body: UpdateProviderRequest, action: ActionKey) =>
  api('PATCH', providerPath(provider.companyId, provider.id), { body, schema: PaymentProvider, action, ifMatch: provider._version })

export const testProviderConnection = (provider: { companyId: string; id: string }, action: ActionKey) =>
  api('POST', `${providerPath(provider.companyId, provider.id)}/test-connection`, { schema: TestConnectionResponse, action })

/** The webhooks registered at Vipps MobilePay for the provider. */
export const listWebhooks = (providerId: string) => api('GET', `/webhook/${providerId}`, { schema: z.array(Webhook) })

export const registerWebhook = (providerId: string, body: RegisterWebhookRequest, action: ActionKey) =>
  api('POST', `/webhook/register/${providerId}`, { body, schema: Webhook, action })

export const removeWebhook = (providerId: string, hookId: string, action: ActionKey) => api('DELETE', `/webhook/${providerId}`, { query: { hookId }, action })

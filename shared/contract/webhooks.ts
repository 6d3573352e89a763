import { z } from 'zod'
import { messages } from '../i18n-messages'
import { isSingleLine } from './text'

export const vippsWebhookEvents = [
  'recurring.agreement-activated.v1',
  'recurring.agreement-rejected.v1',
  'recurring.agreement-stopped.v1',
  'recurring.agreement-expired.v1',
  'recurring.charge-reserved.v1',
  'recurring.charge-captured.v1',
  'recurring.charge-canceled.v1',
  'recurring.charge-refunded.v1',
  'recurring.charge-failed.v1',
  'recurring.charge-creation-failed.v1',
] as const

export const Webhook = z.object({ id: z.uuid(), url: z.string(), events: z.array(z.string()) }).meta({ id: 'Webhook' })
export type Webhook = z.infer<typeof Webhook>

/** docs/PRODUCT.md §5 Webhook: a URL and at least one event. */
export const RegisterWebhookRequest = z
  .object({
    webhookUrl: z
      .string()
      .trim()
      .min(1, messages.webhookUrlRequired.id)
      .max(500, messages.tooLong.id)
      .refine((u) => /^https?:\/\/[^\s/]+/i.test(u) && isSingleLine(u), messages.webhookUrlInvalid.id),
    events: z.array(z.enum(vippsWebhookEvents)).min(1, messages.webhookUrlAndEvents.id).max(vippsWebhookEvents.length),
  })
  .meta({ id: 'RegisterWebhookRequest' })
export type RegisterWebhookRequest = z.infer<typeof RegisterWebhookRequest>

export const WebhookProviderSummary = z
  .object({
    id: z.uuid(),
    companyId: z.uuid(),
    type: z.literal('VIPPS'),
    providerName: z.string(),
    isActive: z.boolean(),
    isTest: z.boolean(),
    webhookCount: z.number().int(),
  })
  .meta({ id: 'WebhookProviderSummary' })

import { z } from 'zod'
import { messages } from '../i18n-messages'
import { Webhook } from './webhooks'
import { isSingleLine, plainText } from './text'

const required = (max: number) => plainText(max)
/** A secret left empty (or sent back masked) keeps the stored one. */
const optionalSecret = (max: number) => z.string().trim().max(max, messages.tooLong.id).refine(isSingleLine, messages.controlCharacters.id).optional()

/**
 * A provider's configuration as answers show it (docs/PRODUCT.md §3): `subscriptionKey` and `clientSecret`
 * are masked ("••••1234"); the plain values never leave the server (docs/API.md).
 */
export const ProviderConfig = z
  .object({
    providerName: z.string(),
    merchantSerialNumber: z.string(),
    subscriptionKey: z.string().meta({ description: 'Masked, e.g. ••••1234' }),
    clientId: z.string(),
    clientSecret: z.string().meta({ description: 'Masked, e.g. ••••1234' }),
    useTestMode: z.boolean(),
  })
  .meta({ id: 'ProviderConfig' })

export const PaymentProvider = z
  .object({
    id: z.uuid(),
    companyId: z.uuid(),
    type: z.literal('VIPPS'),
    isActive: z.boolean(),
    isTest: z.boolean(),
    config: ProviderConfig,
    hooks: z.array(Webhook),
    webhookCount: z.number().int(),
    version: z.number().int(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'PaymentProvider' })
export type PaymentProvider = z.infer<typeof PaymentProvider>

export const ProviderConfigInput = z.object({
  providerName: required(100),
  merchantSerialNumber: required(20),
  subscriptionKey: required(200),
  clientId: required(200),
  clientSecret: required(500),
  useTestMode: z.boolean().default(true),
})

/** POST …/payment-providers: VIPPS only; a new provider is a test one unless told otherwise (docs/PRODUCT.md §9). */
export const CreateProviderRequest = z
  .object({
    id: z.uuid().optional(),
    type: z.literal('VIPPS').default('VIPPS'),
    isTest: z.boolean().default(true),
    isActive: z.boolean().default(true),
    config: ProviderConfigInput,
  })
  .meta({ id: 'CreateProviderRequest' })
export type CreateProviderRequest = z.output<typeof CreateProviderRequest>

/**
 * PATCH …/payment-providers/{providerId}: only what is sent changes. A secret sent back masked
 * (as the answers show it) or empty keeps the stored secret.
 */
export const UpdateProviderRequest = z
  .object({
    isTest: z.boolean().optional(),
    isActive: z.boolean().optional(),
    config: z
      .object({
        providerName: required(100).optional(),
        merchantSerialNumber: required(20).optional(),
        subscriptionKey: optionalSecret(200),
        clientId: required(200).optional(),
        clientSecret: optionalSecret(500),
        useTestMode: z.boolean().optional(),
      })
      .optional(),
  })
  .meta({ id: 'UpdateProviderRequest' })
export type UpdateProviderRequest = z.output<typeof UpdateProviderRequest>

export const TestConnectionResponse = z
  .object({ ok: z.literal(true), environment: z.enum(['test', 'production']), message: z.string() })
  .meta({ id: 'TestConnectionResponse' })
export type TestConnectionResponse = z.infer<typeof TestConnectionResponse>

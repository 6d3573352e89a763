import { defineModule } from '../../kernel/module'
import { assertCan } from '../../access/policy'
import type { SecretBox } from '../../lib/secret-box'
import { paymentProviders } from '../../db/schema/payments'
import { createProvidersService, providerSync, type ProvidersService } from './providers.service'
import { providersRoutes } from './providers.routes'

declare module '../../kernel/module' {
  interface Services {
    providers: ProvidersService
    /** Encrypts provider secrets at rest (APP_SECRET_KEY). */
    secrets: SecretBox
  }
}

/** A company's payment providers (Vipps MobilePay) with their secrets encrypted at rest. */
export const paymentProvidersModule = defineModule({
  name: 'payment-providers',
  tables: [paymentProviders],
  services: {
    secrets: (_s, k) => k.secrets,
    providers: (s, k) => createProvidersService({ db: k.db, secrets: k.secrets, vipps: k.vipps, clock: k.clock, lock: k.lock, companies: s.companies }),
  },
  routes: (s) => [providersRoutes(s.providers)],
  // Adding, changing and testing a provider is the super admin's (server/access/policy.ts).
  acts: () => ({ 'providers:manage': async (actor) => assertCan(actor, 'providers:manage') }),
  sync: (_s, k) => [providerSync(k.secrets)],
})

// What other features use of this one (docs/ARCHITECTURE.md "Layers": a feature is reached through its entry).
export type { ProvidersService } from './providers.service'

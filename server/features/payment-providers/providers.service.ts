import type { Db } from '../../db/client'
import { notFound } from '../../errors'
import type { SecretBox } from '../../lib/secret-box'
import type { VippsEnvironment } from '../../integrations/vipps/vipps-environment'
import type { VippsClient } from '../../integrations/vipps/vipps.client'
import type { Actor } from '../access/actor'
import { isSuperAdmin, roleIn } from '../access/policy'
import { providersRepository, type ProviderRow } from './providers.repository'

export type ProvidersService = ReturnType<typeof createProvidersService>

/**
 * Payment providers as other features need them: who may manage which, and a Vipps client with
 * the provider's decrypted credentials (decrypted here only, never returned).
 * Management screens and the CRUD API arrive with issue #6.
 */
export function createProvidersService(deps: { db: Db; secrets: SecretBox; vipps: VippsEnvironment }) {
  const { db, secrets, vipps } = deps

  return {
    byId: (id: string): ProviderRow | undefined => providersRepository.byId(db, id),

    /** Providers whose webhooks the actor manages: the super admin's (spec §6: providers are super-admin only). */
    manageable(actor: Actor): ProviderRow[] {
      return isSuperAdmin(actor) ? providersRepository.all(db) : []
    },

    /** A provider the actor may see at all; others answer 404. */
    visible(actor: Actor, id: string): ProviderRow {
      const provider = providersRepository.byId(db, id)
      if (!provider || !(isSuperAdmin(actor) || roleIn(actor, provider.companyId))) throw notFound()
      return provider
    },

    vippsClient(provider: ProviderRow): VippsClient {
      return vipps.clientFor({
        clientId: provider.clientId,
        clientSecret: secrets.open(provider.clientSecretSealed),
        subscriptionKey: secrets.open(provider.subscriptionKeySealed),
        merchantSerialNumber: provider.merchantSerialNumber,
        isTest: provider.isTest,
      })
    },
  }
}

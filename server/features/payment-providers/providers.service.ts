import type { Db } from '../../db/client'
import { conflict, DomainError, notFound, versionConflict } from '../../errors'
import type { Clock } from '../../lib/clock'
import { newId } from '../../lib/ids'
import { maskSecret, type SecretBox } from '../../lib/secret-box'
import type { WriteLock } from '../../lib/write-lock'
import type { VippsEnvironment } from '../../integrations/vipps/vipps-environment'
import type { VippsClient } from '../../integrations/vipps/vipps.client'
import { VippsRejected } from '../../integrations/vipps/vipps.errors'
import type { CreateProviderRequest, PaymentProvider, TestConnectionResponse, UpdateProviderRequest } from '../../../shared/contract/payment-providers'
import { messages } from '../../../shared/i18n-messages'
import type { Actor } from '../../access/actor'
import { assertCan, assertCompanyVisible, isSuperAdmin, roleIn } from '../../access/policy'
import { recordChange } from '../sync'
import type { SyncedEntity } from '../sync'
import { providersRepository as repo, type ProviderRow } from './providers.repository'
import type { CompaniesService } from '../companies'

export type ProvidersService = ReturnType<typeof createProvidersService>

/** A secret field as answers show it; a sealed value that cannot be opened shows as fully masked. */
const masked = (secrets: SecretBox, sealed: string): string => {
  try {
    return maskSecret(secrets.open(sealed))
  } catch {
    return '••••'
  }
}

/** The provider as every answer and the synced copy show it: secrets masked, never plain. */
export async function providerView(db: Db, secrets: SecretBox, row: ProviderRow): Promise<PaymentProvider> {
  const hooks = await repo.hooksOf(db, row.id)
  return {
    id: row.id,
    companyId: row.companyId,
    type: row.type,
    isActive: row.isActive,
    isTest: row.isTest,
    config: {
      providerName: row.providerName,
      merchantSerialNumber: row.merchantSerialNumber,
      subscriptionKey: masked(secrets, row.subscriptionKeySealed),
      clientId: row.clientId,
      clientSecret: masked(secrets, row.clientSecretSealed),
      useTestMode: row.useTestMode,
    },
    hooks,
    webhookCount: hooks.length,
    version: row.version,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  }
}

/** A secret sent back as the answers show it (masked) or empty means "keep the stored one". */
const isKeep = (value: string | undefined) => value === undefined || value === '' || value.startsWith('••••')

/**
 * Payment providers (docs/PRODUCT.md §2 Payment provider edit, §3, §7): Vipps MobilePay only. Company staff
 * may read them (masked; agreements need to pick one); adding, changing, toggling and testing
 * is the super admin's (docs/PRODUCT.md §6). `clientSecret` and `subscriptionKey` are sealed at rest and
 * decrypted only to build a Vipps client.
 */
export function createProvidersService(deps: {
  db: Db
  secrets: SecretBox
  vipps: VippsEnvironment
  clock: Clock
  lock?: WriteLock
  /** Whether a company exists, and `assertWritable`: throws unless its data may change (the companies feature's life-cycle rule). */
  companies: Pick<CompaniesService, 'byId' | 'assertWritable'>
}) {
  const { db, secrets, vipps } = deps
  const now = () => deps.clock.now().toISOString()
  const view = async (row: ProviderRow) => await providerView(db, secrets, row)
  const changed = (row: { id: string; companyId: string }) => recordChange(db, deps.clock, 'paymentProvider', row.id, 'upsert', { companyId: row.companyId })

  /** A provider of the company that the actor may see; 404 for anything else. */
  async function ofCompany(actor: Actor, companyId: string, providerId: string): Promise<ProviderRow> {
    assertCompanyVisible(actor, companyId)
    const row = await repo.byId(db, providerId)
    if (!row || row.companyId !== companyId) throw notFound(messages.providerNotFound.id)
    return row
  }

  async function manageable(actor: Actor, companyId: string, providerId: string): Promise<ProviderRow> {
    const row = await ofCompany(actor, companyId, providerId)
    assertCan(actor, 'providers:manage')
    await deps.companies.assertWritable(companyId)
    return row
  }

  function client(provider: ProviderRow): VippsClient {
    return vipps.clientFor({
      clientId: provider.clientId,
      clientSecret: secrets.open(provider.clientSecretSealed),
      subscriptionKey: secrets.open(provider.subscriptionKeySealed),
      merchantSerialNumber: provider.merchantSerialNumber,
      isTest: provider.isTest,
    })
  }

  return {
    byId: async (id: string): Promise<ProviderRow | undefined> => await repo.byId(db, id),

    /** The provider's webhooks changed: its synced copy (hooks, webhook count) is sent again. */
    hooksChanged: (row: { id: string; companyId: string }) => changed(row),

    /** Providers whose webhooks the actor manages: the super admin's (docs/PRODUCT.md §6: providers are super-admin only). */
    async manageable(actor: Actor): Promise<ProviderRow[]> {
      return isSuperAdmin(actor) ? await repo.all(db) : []
    },

    /** A provider the actor may see at all; others answer 404. */
    async visible(actor: Actor, id: string): Promise<ProviderRow> {
      const provider = await repo.byId(db, id)
      if (!provider || !(isSuperAdmin(actor) || roleIn(actor, provider.companyId))) throw notFound()
      return provider
    },

    vippsClient: client,

    /** 404 for a company the actor may not see, and for one that does not exist (decision 0033). */
    async list(actor: Actor, companyId: string): Promise<PaymentProvider[]> {
      assertCompanyVisible(actor, companyId)
      if (!(await deps.companies.byId(companyId))) throw notFound(messages.companyNotFound.id)
      return await Promise.all((await repo.ofCompany(db, companyId)).map(view))
    },

    get: async (actor: Actor, companyId: string, providerId: string): Promise<PaymentProvider> => await view(await ofCompany(actor, companyId, providerId)),

    async create(actor: Actor, companyId: string, input: CreateProviderRequest): Promise<PaymentProvider> {
      assertCompanyVisible(actor, companyId)
      assertCan(actor, 'providers:manage')
      await deps.companies.assertWritable(companyId)
      if (input.id && (await repo.byId(db, input.id))) throw conflict(messages.versionConflict.id)
      const id = input.id ?? newId()
      const at = now()
      await repo.insert(db, {
        id,
        companyId,
        type: input.type,
        isActive: input.isActive,
        isTest: input.isTest,
        providerName: input.config.providerName,
        merchantSerialNumber: input.config.merchantSerialNumber,
        clientId: input.config.clientId,
        clientSecretSealed: secrets.seal(input.config.clientSecret),
        subscriptionKeySealed: secrets.seal(input.config.subscriptionKey),
        useTestMode: input.config.useTestMode,
        createdAt: at,
        updatedAt: at,
      })
      await changed({ id, companyId })
      return view((await repo.byId(db, id))!)
    },

    async update(actor: Actor, companyId: string, providerId: string, input: UpdateProviderRequest, ifMatch?: number): Promise<PaymentProvider> {
      const row = await manageable(actor, companyId, providerId)
      if (ifMatch !== undefined && ifMatch !== row.version) throw versionConflict(await view(row))
      const c = input.config ?? {}
      await repo.update(db, providerId, {
        ...(input.isActive !== undefined && { isActive: input.isActive }),
        ...(input.isTest !== undefined && { isTest: input.isTest }),
        ...(c.providerName !== undefined && { providerName: c.providerName }),
        ...(c.merchantSerialNumber !== undefined && { merchantSerialNumber: c.merchantSerialNumber }),
        ...(c.clientId !== undefined && { clientId: c.clientId }),
        ...(c.useTestMode !== undefined && { useTestMode: c.useTestMode }),
        ...(!isKeep(c.clientSecret) && { clientSecretSealed: secrets.seal(c.clientSecret!) }),
        ...(!isKeep(c.subscriptionKey) && { subscriptionKeySealed: secrets.seal(c.subscriptionKey!) }),
        version: row.version + 1,
        updatedAt: now(),
      })
      await changed(row)
      return view((await repo.byId(db, providerId))!)
    },

    async toggleActive(actor: Actor, companyId: string, providerId: string, ifMatch?: number): Promise<PaymentProvider> {
      const row = await manageable(actor, companyId, providerId)
      if (ifMatch !== undefined && ifMatch !== row.version) throw versionConflict(await view(row))
      await repo.update(db, providerId, { isActive: !row.isActive, version: row.version + 1, updatedAt: now() })
      await changed(row)
      return view((await repo.byId(db, providerId))!)
    },

    /**
     * Fetches a Vipps access token with the stored credentials. Runs outside the request's write
     * transaction (it waits for Vipps), so the database step takes the write lock itself.
     */
    async testConnection(actor: Actor, companyId: string, providerId: string): Promise<TestConnectionResponse> {
      const run = async <T>(fn: () => T) => (deps.lock ? await deps.lock.run(fn) : Promise.resolve(fn()))
      const row = await run(async () => await manageable(actor, companyId, providerId))
      try {
        await client(row).accessToken()
      } catch (err) {
        if (err instanceof VippsRejected) throw new DomainError('BUSINESS_RULE', messages.providerRefused.id, { values: { detail: err.message }, cause: err })
        throw new DomainError('PROVIDER_UNAVAILABLE', messages.providerUnavailable.id, { cause: err })
      }
      return { ok: true, environment: row.isTest ? 'test' : 'production', message: messages.connectionOk.id }
    },
  }
}

/** Providers in the offline store, for staff of the company and the super admin: secrets masked. */
export const providerSync = (secrets: SecretBox): SyncedEntity => {
  const sees = (actor: Actor, companyId: string) => isSuperAdmin(actor) || actor.companies.some((c) => c.id === companyId)
  const synced = async (db: Db, row: ProviderRow) => ({
    id: row.id,
    version: row.version,
    data: (await providerView(db, secrets, row)) as unknown as Record<string, unknown>,
  })
  return {
    name: 'paymentProvider',
    snapshot: async (db, actor, afterId, limit) =>
      await Promise.all((await repo.page(db, isSuperAdmin(actor) ? undefined : actor.companies.map((c) => c.id), afterId, limit)).map((r) => synced(db, r))),
    load: async (db, actor, ids) => await Promise.all((await repo.byIds(db, ids)).filter((r) => sees(actor, r.companyId)).map((r) => synced(db, r))),
  }
}

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

/** What the providers service is made with. */
export interface ProvidersServiceDeps {
  db: Db
  secrets: SecretBox
  vipps: VippsEnvironment
  clock: Clock
  lock?: WriteLock
  /** Whether a company exists, and `assertWritable`: throws unless its data may change (the companies feature's life-cycle rule). */
  companies: Pick<CompaniesService, 'byId' | 'assertWritable'>
}

/**
 * Payment providers (docs/PRODUCT.md §2 Payment provider edit, §3, §7): Vipps MobilePay only. Company staff
 * may read them (masked; agreements need to pick one); adding, changing, toggling and testing
 * is the super admin's (docs/PRODUCT.md §6). `clientSecret` and `subscriptionKey` are sealed at rest and
 * decrypted only to build a Vipps client.
 */
export class ProvidersService {
  constructor(private readonly deps: ProvidersServiceDeps) {}

  private now(): string {
    return this.deps.clock.now().toISOString()
  }

  private async view(row: ProviderRow): Promise<PaymentProvider> {
    return await providerView(this.deps.db, this.deps.secrets, row)
  }

  private async changed(row: { id: string; companyId: string }) {
    return await recordChange(this.deps.db, this.deps.clock, 'paymentProvider', row.id, 'upsert', { companyId: row.companyId })
  }

  /** A provider of the company that the actor may see; 404 for anything else. */
  private async ofCompany(actor: Actor, companyId: string, providerId: string): Promise<ProviderRow> {
    assertCompanyVisible(actor, companyId)
    const row = await repo.byId(this.deps.db, providerId)
    if (!row || row.companyId !== companyId) throw notFound(messages.providerNotFound.id)
    return row
  }

  private async manageableOne(actor: Actor, companyId: string, providerId: string): Promise<ProviderRow> {
    const row = await this.ofCompany(actor, companyId, providerId)
    assertCan(actor, 'providers:manage')
    await this.deps.companies.assertWritable(companyId)
    return row
  }

  async byId(id: string): Promise<ProviderRow | undefined> {
    return await repo.byId(this.deps.db, id)
  }

  /** The association's active provider (its oldest, if several): what agreements made in bulk are collected through (docs/decisions/0093). */
  async activeOf(companyId: string): Promise<ProviderRow | undefined> {
    return (await repo.ofCompany(this.deps.db, companyId)).find((p) => p.isActive)
  }

  /** The provider's webhooks changed: its synced copy (hooks, webhook count) is sent again. */
  async hooksChanged(row: { id: string; companyId: string }) {
    return await this.changed(row)
  }

  /** Providers whose webhooks the actor manages: the super admin's (docs/PRODUCT.md §6: providers are super-admin only). */
  async manageable(actor: Actor): Promise<ProviderRow[]> {
    return isSuperAdmin(actor) ? await repo.all(this.deps.db) : []
  }

  /** A provider the actor may see at all; others answer 404. */
  async visible(actor: Actor, id: string): Promise<ProviderRow> {
    const provider = await repo.byId(this.deps.db, id)
    if (!provider || !(isSuperAdmin(actor) || roleIn(actor, provider.companyId))) throw notFound()
    return provider
  }

  vippsClient(provider: ProviderRow): VippsClient {
    const { secrets } = this.deps
    return this.deps.vipps.clientFor({
      clientId: provider.clientId,
      clientSecret: secrets.open(provider.clientSecretSealed),
      subscriptionKey: secrets.open(provider.subscriptionKeySealed),
      merchantSerialNumber: provider.merchantSerialNumber,
      isTest: provider.isTest,
    })
  }

  /** 404 for a company the actor may not see, and for one that does not exist (decision 0033). */
  async list(actor: Actor, companyId: string): Promise<PaymentProvider[]> {
    assertCompanyVisible(actor, companyId)
    if (!(await this.deps.companies.byId(companyId))) throw notFound(messages.companyNotFound.id)
    return await Promise.all((await repo.ofCompany(this.deps.db, companyId)).map((row) => this.view(row)))
  }

  async get(actor: Actor, companyId: string, providerId: string): Promise<PaymentProvider> {
    return await this.view(await this.ofCompany(actor, companyId, providerId))
  }

  async create(actor: Actor, companyId: string, input: CreateProviderRequest): Promise<PaymentProvider> {
    const { db, secrets } = this.deps
    assertCompanyVisible(actor, companyId)
    assertCan(actor, 'providers:manage')
    await this.deps.companies.assertWritable(companyId)
    if (input.id && (await repo.byId(db, input.id))) throw conflict(messages.versionConflict.id)
    const id = input.id ?? newId()
    const at = this.now()
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
    await this.changed({ id, companyId })
    return this.view((await repo.byId(db, id))!)
  }

  async update(actor: Actor, companyId: string, providerId: string, input: UpdateProviderRequest, ifMatch?: number): Promise<PaymentProvider> {
    const { db, secrets } = this.deps
    const row = await this.manageableOne(actor, companyId, providerId)
    if (ifMatch !== undefined && ifMatch !== row.version) throw versionConflict(await this.view(row))
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
      updatedAt: this.now(),
    })
    await this.changed(row)
    return this.view((await repo.byId(db, providerId))!)
  }

  async toggleActive(actor: Actor, companyId: string, providerId: string, ifMatch?: number): Promise<PaymentProvider> {
    const { db } = this.deps
    const row = await this.manageableOne(actor, companyId, providerId)
    if (ifMatch !== undefined && ifMatch !== row.version) throw versionConflict(await this.view(row))
    await repo.update(db, providerId, { isActive: !row.isActive, version: row.version + 1, updatedAt: this.now() })
    await this.changed(row)
    return this.view((await repo.byId(db, providerId))!)
  }

  /**
   * Fetches a Vipps access token with the stored credentials. Runs outside the request's write
   * transaction (it waits for Vipps), so the database step takes the write lock itself.
   */
  async testConnection(actor: Actor, companyId: string, providerId: string): Promise<TestConnectionResponse> {
    const lock = this.deps.lock
    const run = async <T>(fn: () => T) => (lock ? await lock.run(fn) : Promise.resolve(fn()))
    const row = await run(async () => await this.manageableOne(actor, companyId, providerId))
    try {
      await this.vippsClient(row).accessToken()
    } catch (err) {
      if (err instanceof VippsRejected) throw new DomainError('BUSINESS_RULE', messages.providerRefused.id, { values: { detail: err.message }, cause: err })
      throw new DomainError('PROVIDER_UNAVAILABLE', messages.providerUnavailable.id, { cause: err })
    }
    return { ok: true, environment: row.isTest ? 'test' : 'production', message: messages.connectionOk.id }
  }
}

export const createProvidersService = (deps: ProvidersServiceDeps) => new ProvidersService(deps)

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

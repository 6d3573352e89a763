import { snapshot, type Db } from '../../db/client'
import { conflict, forbidden, notFound, versionConflict } from '../../errors'
import { isoNow, type Clock } from '../../lib/clock'
import { newId } from '../../lib/ids'
import { decodeCursor, pageOf } from '../../http/paging'
import type { CreateSpecialistRequest, Specialist, SpecialistListQuery, UpdateSpecialistRequest } from '../../../shared/contract/specialists'
import { messages as m } from '../../../shared/i18n-messages'
import type { Actor } from '../../access/actor'
import { assertCompanyInScope } from '../companies'
import { isSuperAdmin, roleIn } from '../../access/policy'
import type { CompaniesService } from '../companies'
import type { Residency } from '../agreements'
import { recordChange } from '../sync'
import type { SyncedEntity } from '../sync'
import { specialistsRepository as repo, type SpecialistRow } from './specialists.repository'

const view = (r: SpecialistRow): Specialist => ({
  id: r.id,
  companyId: r.companyId,
  kind: r.kind,
  name: r.name,
  companyName: r.companyName,
  phone: r.phone,
  email: r.email,
  website: r.website,
  address: r.address,
  notes: r.notes,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
  version: r.version,
})

const synced = (r: SpecialistRow) => {
  const s = view(r)
  return { id: s.id, version: s.version, data: s as unknown as Record<string, unknown> }
}

export interface SpecialistsServiceDeps {
  db: Db
  clock: Clock
  companies: CompaniesService
  residency: Residency
}

const orNull = (v: string | null | undefined) => v ?? null

/**
 * The association's linked specialists (docs/PRODUCT.md "Specialists", decision 0065):
 * its staff (every company role) and the super admin write them; its members (staff and residents
 * with a living agreement) read them. Another association's specialist, or list, is 404.
 */
export class SpecialistsService {
  constructor(private readonly deps: SpecialistsServiceDeps) {}

  private now() {
    return isoNow(this.deps.clock)
  }

  /** The associations whose specialists the actor's offline copy holds: their own; the super admin's, every association's (as their change log). */
  private async memberOf(actor: Actor): Promise<string[] | 'all'> {
    if (isSuperAdmin(actor)) return 'all'
    return await this.deps.residency.memberCompanyIds(actor)
  }

  /** Throws 403 unless the actor keeps the association's specialists: its staff (every role) and the super admin (the route's `act` too). */
  assertMayWrite(actor: Actor, companyId: string): void {
    if (!isSuperAdmin(actor) && !roleIn(actor, companyId)) throw forbidden(m.specialistNotStaff.id)
  }

  private async isMember(actor: Actor, companyId: string) {
    return roleIn(actor, companyId) !== undefined || (await this.deps.residency.residentCompanyIds(actor.userId)).includes(companyId)
  }

  private async readable(actor: Actor, id: string): Promise<SpecialistRow> {
    const row = await repo.byId(this.deps.db, id)
    if (!row || !(isSuperAdmin(actor) || (await this.isMember(actor, row.companyId)))) throw notFound(m.specialistNotFound.id)
    return row
  }

  private async writable(actor: Actor, id: string, version?: number): Promise<SpecialistRow> {
    const row = await this.readable(actor, id)
    if (!isSuperAdmin(actor) && !roleIn(actor, row.companyId)) throw forbidden(m.specialistNotStaff.id)
    if (version !== undefined && version !== row.version) throw versionConflict(view(row))
    await this.deps.companies.assertWritable(row.companyId)
    return row
  }

  /** The change for sync: one row the company's staff and residents read (decision 0073). */
  private async changed(row: Pick<SpecialistRow, 'id' | 'companyId'>, op: 'upsert' | 'delete') {
    await recordChange(this.deps.db, this.deps.clock, 'specialist', row.id, op, { companyId: row.companyId, members: true })
  }

  private async current(id: string): Promise<Specialist> {
    return view((await repo.byId(this.deps.db, id))!)
  }

  async list(actor: Actor, query: SpecialistListQuery): Promise<{ items: Specialist[]; next: string | null }> {
    const after = decodeCursor(query.cursor, ['string', 'string', 'string'])
    return await snapshot(this.deps.db, async () => {
      await assertCompanyInScope(this.deps.db, actor, query.companyId)
      if (!isSuperAdmin(actor) && !(await this.isMember(actor, query.companyId))) throw notFound()
      const rows = await repo.listPage(this.deps.db, query, after, query.limit + 1)
      const page = pageOf(rows, query.limit, (r) => [r.kind, r.name, r.id])
      return { items: page.rows.map(view), next: page.next }
    })
  }

  async view(actor: Actor, id: string): Promise<Specialist> {
    return view(await this.readable(actor, id))
  }

  async create(actor: Actor, input: CreateSpecialistRequest): Promise<Specialist> {
    if (input.id) {
      const existing = await repo.byId(this.deps.db, input.id)
      if (existing) {
        if (!(isSuperAdmin(actor) || (await this.isMember(actor, existing.companyId)))) throw notFound(m.specialistNotFound.id)
        // The same create sent again (a retry from the outbox) answers the stored one.
        if (existing.companyId === input.companyId && existing.name === input.name.trim()) return view(existing)
        throw conflict(m.billingRecordExists.id, 'id')
      }
    }
    await assertCompanyInScope(this.deps.db, actor, input.companyId)
    this.assertMayWrite(actor, input.companyId)
    await this.deps.companies.assertWritable(input.companyId)
    const at = this.now()
    const row = {
      id: input.id ?? newId(),
      companyId: input.companyId,
      kind: input.kind,
      name: input.name.trim(),
      companyName: orNull(input.companyName),
      phone: orNull(input.phone),
      email: orNull(input.email),
      website: orNull(input.website),
      address: orNull(input.address),
      notes: (input.notes ?? '').trim(),
      createdAt: at,
      updatedAt: at,
    }
    await repo.insert(this.deps.db, row)
    await this.changed(row, 'upsert')
    return await this.current(row.id)
  }

  async update(actor: Actor, id: string, input: UpdateSpecialistRequest, version?: number): Promise<Specialist> {
    const row = await this.writable(actor, id, version)
    const fields = Object.fromEntries(
      (['kind', 'name', 'companyName', 'phone', 'email', 'website', 'address', 'notes'] as const)
        .filter((k) => input[k] !== undefined)
        .map((k) => [k, typeof input[k] === 'string' ? (input[k] as string).trim() : input[k]]),
    ) as Partial<SpecialistRow>
    if (Object.entries(fields).every(([k, v]) => row[k as keyof SpecialistRow] === v)) return view(row)
    await repo.update(this.deps.db, id, { ...fields, updatedAt: this.now() })
    await this.changed(row, 'upsert')
    return await this.current(id)
  }

  async remove(actor: Actor, id: string, version?: number): Promise<void> {
    const row = await this.writable(actor, id, version)
    await repo.delete(this.deps.db, id)
    await this.changed(row, 'delete')
  }

  /** Sync: the specialists of the associations the actor is a member of. */
  syncEntity(): SyncedEntity {
    return {
      name: 'specialist',
      snapshot: async (db, actor, afterId, limit) => (await repo.syncPage(db, await this.memberOf(actor), afterId, limit)).map(synced),
      load: async (db, actor, ids) => (await repo.byIds(db, await this.memberOf(actor), ids)).map(synced),
    }
  }
}

export const createSpecialistsService = (deps: SpecialistsServiceDeps) => new SpecialistsService(deps)

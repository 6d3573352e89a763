import { snapshot, type Db } from '../../db/client'
import { groupBy } from '../../lib/group-by'
import { notFound } from '../../errors'
import { decodeCursor, pageOf } from '../../http/paging'
import type { Invoice, InvoiceListQuery } from '../../../shared/contract/invoices'
import { messages } from '../../../shared/i18n-messages'
import type { Actor } from '../../access/actor'
import { canReadAgreement, isSuperAdmin, roleIn } from '../../access/policy'
import { assertCompanyInScope } from '../companies'
import type { SyncedEntity } from '../sync'
import { invoicesRepository as repo, type InvoiceRow, type InvoiceScope } from './invoices.repository'

export interface InvoicesServiceDeps {
  db: Db
}

/**
 * Reading invoices and credit notes (docs/PRODUCT.md §2 "Invoice list", "Invoice view", docs/PRODUCT.md §6): the staff of a
 * company (any company role) and the super admin read the company's; a resident reads their own.
 * Anything else is 404. Issuing them is the billing service's job.
 */
export class InvoicesService {
  constructor(private readonly deps: InvoicesServiceDeps) {}

  scopeOf(actor: Actor): InvoiceScope {
    return isSuperAdmin(actor) ? 'all' : { companyIds: actor.companies.map((c) => c.id), memberUserId: actor.userId }
  }

  async views(rows: InvoiceRow[]): Promise<Invoice[]> {
    const { db } = this.deps
    if (!rows.length) return []
    const lines = await repo.linesOfAll(
      db,
      rows.map((r) => r.id),
    )
    const linesOf = groupBy(lines, (l) => l.invoiceId)
    const credited = await repo.numbers(db, [...new Set(rows.map((r) => r.creditedInvoiceId).filter((x): x is string => x !== null))])
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      invoiceNumber: String(r.number),
      name: r.description,
      companyId: r.companyId,
      agreementId: r.agreementId,
      chargeId: r.chargeId,
      creditedInvoice: r.creditedInvoiceId ? { id: r.creditedInvoiceId, invoiceNumber: credited.get(r.creditedInvoiceId) ?? '' } : null,
      issueDate: r.issueDate,
      dueDate: r.dueDate,
      status: r.status,
      settlement: r.settlement ? { kind: r.settlement, date: r.settledOn ?? r.updatedAt.slice(0, 10), note: r.settlementNote, by: r.settledByName } : null,
      company: { name: r.companyName, cvr: r.companyCvr, address: r.companyAddress },
      payment: r.paymentStatus ? { status: r.paymentStatus, paymentType: r.paymentType ?? '', paymentDate: r.paymentDate } : null,
      consumerName: r.consumerName,
      consumerAddress: r.consumerAddress,
      consumerPhoneNumber: r.consumerPhoneNumber,
      consumerEmailAddress: r.consumerEmailAddress,
      currency: r.currency,
      subtotal: r.subtotalOre,
      vatRate: r.vatRate,
      totalVatAmount: r.vatOre,
      totalAmount: r.totalOre,
      invoiceArticles: (linesOf.get(r.id) ?? []).map((l) => ({
        id: l.id,
        articleNumber: l.articleNumber,
        type: l.type,
        articleDescription: l.description,
        quantity: l.quantity,
        unit: l.unit,
        pricePerUnit: l.pricePerUnitOre,
        vatRate: l.vatRate,
        vatAmount: l.vatOre,
        totalPriceIncludingVat: l.totalInclVatOre,
        creditedArticleId: r.creditedInvoiceId !== null && l.creditedPosition !== null ? `${r.creditedInvoiceId}:${l.creditedPosition}` : null,
      })),
      version: r.version,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    }))
  }

  canRead(actor: Actor, r: InvoiceRow) {
    return canReadAgreement(actor, r)
  }

  /**
   * Staff (and the super admin) with `companyId` get the company's invoices; without it, or in
   * a company where the caller is not staff, their own (docs/PRODUCT.md §6 "Invoices fetched"). Newest first.
   * A company they have nothing to do with (or that does not exist) answers 404 (decision 0033).
   * A page at a time (docs/API.md "Lists"); the cursor only says where to start, never what the caller sees.
   */
  async list(actor: Actor, query: InvoiceListQuery): Promise<{ items: Invoice[]; next: string | null }> {
    const { db } = this.deps
    // Keyset paging: one statement for the page, two for its views (lines, credited numbers).
    const after = decodeCursor(query.cursor, ['string', 'number', 'string'])
    if (query.companyId !== undefined) await assertCompanyInScope(db, actor, query.companyId)
    const staff = query.companyId !== undefined && (isSuperAdmin(actor) || roleIn(actor, query.companyId) !== undefined)
    const filter = staff ? { companyId: query.companyId } : { memberUserId: actor.userId, ...(query.companyId ? { companyId: query.companyId } : {}) }
    // One read transaction: the rows and their lines from the same snapshot.
    return snapshot(db, async () => {
      const rows = await repo.listPage(db, { ...filter, status: query.status, after, limit: query.limit + 1 })
      const page = pageOf(rows, query.limit, (r) => [r.issueDate, r.number, r.id])
      return { items: await this.views(page.rows), next: page.next }
    })
  }

  /** The company's documents on its Invoices page (invoices and credit notes), for the Companies list. */
  async countOfCompany(companyId: string): Promise<number> {
    return await repo.countOfCompany(this.deps.db, companyId)
  }

  async get(actor: Actor, id: string): Promise<Invoice> {
    const row = await repo.byId(this.deps.db, id)
    if (!row || !this.canRead(actor, row)) throw notFound(messages.invoiceNotFound.id)
    return (await this.views([row]))[0]!
  }

  /** Sync: rows of the actor's scope after `afterId` in id order. */
  async page(actor: Actor, afterId: string | null, limit: number): Promise<InvoiceRow[]> {
    return await repo.page(this.deps.db, this.scopeOf(actor), afterId, limit)
  }

  async byIds(ids: string[]): Promise<InvoiceRow[]> {
    return await repo.byIds(this.deps.db, ids)
  }

  /** Every invoice and credit note of an agreement (a move's final settlement reads its open balance, docs/decisions/0090). */
  async ofAgreement(agreementId: string): Promise<InvoiceRow[]> {
    return await repo.ofAgreement(this.deps.db, agreementId)
  }
}

export const createInvoicesService = (deps: InvoicesServiceDeps) => new InvoicesService(deps)

/** Invoices in the offline store (the client's Dexie table `invoices`): the `Invoice` shape, same audience as the list. */
export const invoiceSync = (service: InvoicesService): SyncedEntity => ({
  name: 'invoice',
  snapshot: async (_db, actor, afterId, limit) =>
    (await service.views(await service.page(actor, afterId, limit))).map((v) => ({
      id: v.id,
      version: v.version,
      data: v as unknown as Record<string, unknown>,
    })),
  load: async (_db, actor, ids) =>
    (await service.views((await service.byIds(ids)).filter((r) => service.canRead(actor, r)))).map((v) => ({
      id: v.id,
      version: v.version,
      data: v as unknown as Record<string, unknown>,
    })),
})

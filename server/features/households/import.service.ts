import type { Db } from '../../db/client'
import { DomainError, forbidden, validation, type Issue } from '../../errors'
import { isoNow, todayInCopenhagen, type Clock } from '../../lib/clock'
import { inReadScope } from '../../db/read-scope'
import { newId } from '../../lib/ids'
import { translate, type Locale } from '../../i18n/i18n'
import { addressKey } from '../../../shared/domain/address'
import type { HouseholdType } from '../../../shared/domain/household'
import {
  columnLabels,
  importMessages,
  partOfColumn,
  readHouseholdSheet,
  type ImportProblem,
  type ImportRow,
  type ReadSheet,
} from '../../../shared/domain/household-import'
import type { ImportAgreement, ImportOutcome, ImportReport, ImportRowView } from '../../../shared/contract/household-import'
import { firstOfNextMonth, startPaymentDateProblem } from '../../../shared/domain/agreement-dates'
import { DEFAULT_VAT_RATE, type PartType } from '../../../shared/domain/agreement-parts'
import { companyAdminStaffRoles } from '../../../shared/domain/roles'
import { messages as m } from '../../../shared/i18n-messages'
import type { Actor } from '../../access/actor'
import { isSuperAdmin, roleIn } from '../../access/policy'
import { AddressProviderUnavailable, type AddressProvider } from '../../integrations/addresses/address-provider'
import { assertCompanyInScope, type CompaniesService } from '../companies'
import type { UsersService } from '../users'
import type { AgreementsService } from '../agreements'
import type { ProvidersService } from '../payment-providers'
import { recordChange, recordChangesFor } from '../sync'
import type { HouseholdRow } from './households.repository'
import { importRepository as repo } from './import.repository'
import { readSheet, templateWorkbook } from './import-sheet'

export interface HouseholdImportDeps {
  db: Db
  clock: Clock
  companies: CompaniesService
  users: UsersService
  provider: AddressProvider
  agreements: AgreementsService
  providers: ProvidersService
}

export interface ImportOptions {
  dryRun: boolean
  onlyValid: boolean
  /** The first payment date of the agreements the import creates (default: the first of next month, Copenhagen). */
  startPaymentDate?: string
}

/**
 * The file read and its new addresses looked up in the address register: the step before the
 * write, outside the write lock (docs/decisions/0009, 0093). `references` holds, for each address
 * key the association did not have, the register's reference (null: known without one) or false
 * (the register does not know it).
 */
export interface PreparedImport {
  companyId: string
  read: ReadSheet
  references: ReadonlyMap<string, string | null | false>
}

type ExistingResident = Awaited<ReturnType<typeof repo.residentsOf>>[number]

/** What the import does to one household of the file. */
interface Plan {
  id: string
  existing: HouseholdRow | undefined
  /** Whether its details row exists (an address without one reads as an APARTMENT at version 1). */
  hasDetails: boolean
  referenceId: string | null
  rows: ImportRow[]
  fields: { type?: HouseholdType; areaCentiM2?: number; allocationMilli?: number; shareOre?: number; externalId?: string }
  changed: boolean
  newResidents: { row: ImportRow; id: string }[]
  changedResidents: { row: ImportRow; resident: ExistingResident }[]
  /** The agreement the import makes for the household's payer (NEW), or why not (EXISTING: one runs at the address). */
  agreement: { outcome: ImportAgreement; payer: ImportRow; parts: { type: PartType; price: number }[] } | null
}

/** A running agreement (docs/decisions/0090): CREATED, PENDING or ACCEPTED and not terminating. */
const running = (a: { status: string; terminationDate: string | null }) =>
  (a.status === 'CREATED' || a.status === 'PENDING' || a.status === 'ACCEPTED') && a.terminationDate === null

const addressLine = (a: { street: string; number: string; floor: string | null; side: string | null; zip: string; city: string }) => {
  const unit = [a.floor ? `${a.floor}.` : null, a.side].filter(Boolean).join(' ')
  return `${a.street} ${a.number}${unit ? `, ${unit}` : ''}, ${a.zip} ${a.city}`
}

/**
 * The household spreadsheet import (docs/PRODUCT.md "Importing households", docs/decisions/0092):
 * a dry run that reports each row's outcome and every problem by row and column, writing
 * nothing; the import itself in the route's one write transaction — all or nothing, or only the
 * valid rows when asked. Importing the same file again changes nothing: households are matched by
 * external number, else by address; residents by e-mail within their household. The association's
 * households, residents and the users of the file's e-mail addresses are read once, and rows are
 * written in multi-row statements.
 */
export class HouseholdImportService {
  constructor(private readonly deps: HouseholdImportDeps) {}

  /** The association's chairman, administrator and accountant, and the super admin; other staff 403, others 404. */
  private async allowed(actor: Actor, companyId: string) {
    await assertCompanyInScope(this.deps.db, actor, companyId)
    if (!isSuperAdmin(actor) && !(companyAdminStaffRoles as readonly string[]).includes(roleIn(actor, companyId) ?? '')) throw forbidden(m.householdNotStaff.id)
  }

  async template(actor: Actor, companyId: string, locale: Locale): Promise<Uint8Array> {
    await this.allowed(actor, companyId)
    return templateWorkbook(locale)
  }

  /** Whether the address register knows the address (an address the association has is not asked again). */
  private async known(row: ImportRow): Promise<string | null | false> {
    const h = row.household
    const query = [h.street, h.number, h.floor, h.side, h.zip].filter(Boolean).join(' ')
    try {
      const found = await this.deps.provider.search(query, 50)
      return found.find((s) => addressKey(s) === row.addressKey)?.referenceId ?? false
    } catch (err) {
      if (err instanceof AddressProviderUnavailable) throw new DomainError('PROVIDER_UNAVAILABLE', m.addressSearchUnavailable.id)
      throw err
    }
  }

  /**
   * The step before the write (docs/decisions/0093): reads the file and asks the address register
   * about each address the association does not have yet, once each. Call it outside the write
   * lock: its reads run in a read scope, and the register is an outside service (decision 0009).
   */
  async prepare(actor: Actor, companyId: string, bytes: Uint8Array): Promise<PreparedImport> {
    const { db } = this.deps
    // Access first: someone outside the association hears 404 (or 403), whatever the file.
    await inReadScope(() => this.allowed(actor, companyId))
    const read = readHouseholdSheet(readSheet(bytes))
    const existing = await inReadScope(() => repo.householdsOf(db, companyId))
    const keys = new Set(existing.map((h) => h.addressKey ?? addressKey(h)))
    const externals = new Set(existing.map((h) => h.externalId).filter(Boolean))
    const references = new Map<string, string | null | false>()
    for (const row of read.rows) {
      if (keys.has(row.addressKey) || (row.household.externalId && externals.has(row.household.externalId)) || references.has(row.addressKey)) continue
      references.set(row.addressKey, await this.known(row))
    }
    return { companyId, read, references }
  }

  async run(actor: Actor, prepared: PreparedImport, options: ImportOptions, locale: Locale): Promise<ImportReport> {
    const { db, clock } = this.deps
    const { companyId, read } = prepared
    await this.allowed(actor, companyId)
    if (!options.dryRun) await this.deps.companies.assertWritable(companyId)
    // The agreements' first payment date: today or later, at most 5 years ahead (decision 0034).
    const today = todayInCopenhagen(clock)
    const startPaymentDate = options.startPaymentDate ?? firstOfNextMonth(today)
    const dateProblem = startPaymentDateProblem(startPaymentDate, today)
    if (dateProblem) throw validation([dateProblem])
    const problems: ImportProblem[] = [...read.problems]
    const company = (await this.deps.companies.byId(companyId))!

    // The association as it is, read once.
    const existing = await repo.householdsOf(db, companyId)
    const byKey = new Map(existing.map((h) => [h.addressKey ?? addressKey(h), h]))
    const byExternal = new Map(existing.filter((h) => h.externalId).map((h) => [h.externalId!, h]))
    const residentsOf = new Map<string, ExistingResident[]>()
    for (const r of await repo.residentsOf(db, companyId)) residentsOf.set(r.householdId, [...(residentsOf.get(r.householdId) ?? []), r])

    // Rows by household: matched by external number, else by address; new addresses checked against the register once each.
    const plans = new Map<string, Plan>()
    const planOfRow = new Map<number, Plan>()
    for (const row of read.rows) {
      const h = row.household
      const problem = (column: ImportProblem['column'], message: { id: string }) => problems.push({ row: row.row, column, message: { id: message.id } })
      if (h.shareOre !== null && company.unionType !== 'COOP') {
        problem('share', importMessages.shareOnlyCoop)
        continue
      }
      const match = (h.externalId ? byExternal.get(h.externalId) : undefined) ?? byKey.get(row.addressKey)
      if (match && h.externalId && match.externalId !== h.externalId && byExternal.has(h.externalId)) {
        problem('externalId', importMessages.externalIdTaken)
        continue
      }
      const planKey = match?.id ?? `new:${row.addressKey}`
      let plan = plans.get(planKey)
      if (!plan) {
        let referenceId: string | null = null
        if (!match) {
          // Looked up before the write (`prepare`); an address the association lost since then was not looked up.
          const ref = prepared.references.get(row.addressKey) ?? false
          if (ref === false) {
            problem('street', importMessages.addressNotFound)
            continue
          }
          referenceId = ref
        }
        plan = {
          id: match?.id ?? newId(),
          existing: match,
          hasDetails: match?.version != null,
          referenceId,
          rows: [],
          fields: {},
          changed: !match,
          newResidents: [],
          changedResidents: [],
          agreement: null,
        }
        plans.set(planKey, plan)
      }
      plan.rows.push(row)
      planOfRow.set(row.row, plan)
    }

    const errorRows = new Set(problems.filter((p) => p.row > 1).map((p) => p.row))
    const headerProblem = problems.some((p) => p.row === 1)

    // What changes, household by household (rows with a problem are left out).
    for (const plan of plans.values()) {
      const rows = plan.rows.filter((r) => !errorRows.has(r.row))
      plan.rows = rows
      const current = plan.existing
      for (const r of rows) {
        const h = r.household
        if (h.type !== null) plan.fields.type = h.type
        if (h.areaCentiM2 !== null) plan.fields.areaCentiM2 = h.areaCentiM2
        if (h.allocationMilli !== null) plan.fields.allocationMilli = h.allocationMilli
        if (h.shareOre !== null) plan.fields.shareOre = h.shareOre
        if (h.externalId !== null) plan.fields.externalId = h.externalId
      }
      if (current) {
        const now = { ...current, type: current.type ?? 'APARTMENT' }
        plan.changed = (Object.keys(plan.fields) as (keyof Plan['fields'])[]).some((k) => plan.fields[k] !== now[k])
      }
      const lived = residentsOf.get(plan.id) ?? []
      for (const r of rows) {
        if (!r.resident) continue
        const same = lived.filter((x) => x.emailAddress === r.resident!.emailAddress)
        const resident = same.find((x) => x.moveOutDate === null) ?? same[same.length - 1]
        if (!resident) plan.newResidents.push({ row: r, id: newId() })
        else if (
          resident.fullName !== r.resident.fullName ||
          resident.moveInDate !== r.resident.moveInDate ||
          resident.kind !== r.resident.kind ||
          resident.isPayer !== r.resident.isPayer
        )
          plan.changedResidents.push({ row: r, resident })
      }
    }

    // An agreement for each household whose payer's row has amounts, unless one runs at its address (decision 0093).
    const runningAt = new Set(
      (await this.deps.agreements.atAddresses([...plans.values()].filter((p) => p.existing).map((p) => p.id))).filter(running).map((a) => a.addressId),
    )
    for (const plan of plans.values()) {
      const payer = plan.rows.find((r) => r.resident?.isPayer)
      if (!payer?.parts.length) continue
      plan.agreement = { outcome: runningAt.has(plan.id) ? 'EXISTING' : 'NEW', payer, parts: payer.parts }
    }
    const newAgreements = [...plans.values()].filter((p) => p.agreement?.outcome === 'NEW')
    const provider = newAgreements.length ? await this.deps.providers.activeOf(companyId) : undefined
    const providerProblem = newAgreements.length && !provider ? translate(locale, importMessages.noProvider.id) : null

    // The report.
    const outcomeOf = (row: number): ImportOutcome => {
      if (errorRows.has(row)) return 'ERROR'
      const plan = planOfRow.get(row)!
      if (!plan.existing) return 'NEW'
      const own = plan.newResidents.some((x) => x.row.row === row) || plan.changedResidents.some((x) => x.row.row === row)
      return plan.changed || own ? 'UPDATE' : 'UNCHANGED'
    }
    const rowOf = new Map(read.rows.map((r) => [r.row, r]))
    const rows: ImportRowView[] = read.rowNumbers.map((n) => {
      const r = rowOf.get(n)
      const plan = planOfRow.get(n)
      const outcome = outcomeOf(n)
      return {
        row: n,
        outcome,
        householdId: plan && outcome !== 'ERROR' && (plan.existing || !options.dryRun) ? plan.id : null,
        address: r ? addressLine(r.household) : (read.written.get(n)?.address ?? ''),
        residentName: r ? (r.resident?.fullName ?? null) : (read.written.get(n)?.residentName ?? null),
        agreement: outcome !== 'ERROR' && plan?.agreement?.payer.row === n ? plan.agreement.outcome : null,
      }
    })
    const counts = { NEW: 0, UPDATE: 0, UNCHANGED: 0, ERROR: 0 }
    for (const r of rows) counts[r.outcome]++
    problems.sort((a, b) => a.row - b.row)
    const problemViews = problems.map((p) => ({
      row: p.row,
      column: p.column,
      columnName: p.column ? columnLabels[p.column][locale] : null,
      message: translate(locale, p.message.id, p.message.values),
    }))
    const agreements = {
      NEW: rows.filter((r) => r.agreement === 'NEW').length,
      EXISTING: rows.filter((r) => r.agreement === 'EXISTING').length,
      startPaymentDate,
      problem: providerProblem,
    }
    const report = (imported: boolean): ImportReport => ({ dryRun: options.dryRun, imported, counts, agreements, rows, problems: problemViews })
    if (options.dryRun) return report(false)

    // All or nothing unless the caller asked for the valid rows: every problem named by row and column.
    if (headerProblem || (problems.length && !options.onlyValid)) {
      const issues: Issue[] = problems.map((p) => ({ path: `rows.${p.row}${p.column ? `.${p.column}` : ''}`, message: p.message.id, values: p.message.values }))
      throw validation(issues, importMessages.notImported.id)
    }
    // Agreements need the association's payment provider: without one nothing is imported (422), the dry run said so.
    const writeAgreements = newAgreements
    if (writeAgreements.length && !provider) throw new DomainError('BUSINESS_RULE', importMessages.noProvider.id)

    const userOf = await this.write([...plans.values()], actor, companyId)
    if (provider && writeAgreements.length) {
      // A payer who lives there already is the user the association has; a new one was just made or found.
      const residentUser = new Map(writeAgreements.flatMap((p) => residentsOf.get(p.id) ?? []).map((r) => [r.emailAddress, r.userId]))
      await this.deps.agreements.createForHouseholds(actor, {
        companyId,
        paymentProviderId: provider.id,
        startPaymentDate,
        paymentPeriod: 'MONTHLY',
        agreements: writeAgreements.map((p) => {
          const email = p.agreement!.payer.resident!.emailAddress
          return {
            householdId: p.id,
            memberUserId: userOf.get(email) ?? residentUser.get(email)!,
            parts: p.agreement!.parts.map((part) => ({
              type: part.type,
              description: partLabel(part.type, locale),
              price: part.price,
              vatRate: DEFAULT_VAT_RATE,
            })),
          }
        }),
      })
    }
    return report(true)
  }

  /**
   * Writes the plans: addresses, users, household details, residents and the sync changes, in the
   * caller's transaction. Answers the users of the new residents by e-mail.
   */
  private async write(plans: Plan[], actor: Actor, companyId: string): Promise<Map<string, string>> {
    const { db, clock, companies, users } = this.deps
    const now = isoNow(clock)
    const live = plans.filter((p) => p.rows.length && (p.changed || p.newResidents.length || p.changedResidents.length))

    for (const p of live.filter((x) => !x.existing)) {
      const h = p.rows[0]!.household
      await companies.addAddress(actor, companyId, {
        id: p.id,
        referenceId: p.referenceId ?? undefined,
        street: h.street,
        number: h.number,
        floor: h.floor ?? undefined,
        side: h.side ?? undefined,
        city: h.city,
        zip: h.zip,
      })
    }

    // Users for new residents: found by e-mail, else made (not signed in, not invited: staff invite them afterwards).
    const emails = [...new Set(live.flatMap((p) => p.newResidents.map((x) => x.row.resident!.emailAddress)))]
    const userOf = new Map((await repo.usersByEmail(db, emails)).map((u) => [u.emailAddress, u.id]))
    for (const email of emails) {
      if (userOf.has(email)) continue
      const name = live.flatMap((p) => p.newResidents).find((x) => x.row.resident!.emailAddress === email)!.row.resident!.fullName
      const id = newId()
      await users.insert({
        id,
        fullName: name,
        emailAddress: email,
        language: actor.language,
        systemRole: 'USER',
        currentCompanyId: null,
        createdAt: now,
        updatedAt: now,
      })
      userOf.set(email, id)
    }

    await repo.insertHouseholds(
      db,
      live
        .filter((p) => !p.hasDetails)
        .map((p) => ({ addressId: p.id, companyId, ...p.fields, type: p.fields.type ?? 'APARTMENT', version: 2, createdAt: now, updatedAt: now })),
    )
    for (const p of live.filter((x) => x.hasDetails))
      await repo.updateHousehold(db, p.id, { ...p.fields, version: (p.existing!.version ?? 1) + 1, updatedAt: now })

    await repo.insertResidents(
      db,
      live.flatMap((p) =>
        p.newResidents.map(({ row, id }) => ({
          id,
          companyId,
          householdId: p.id,
          userId: userOf.get(row.resident!.emailAddress)!,
          fullName: row.resident!.fullName,
          moveInDate: row.resident!.moveInDate,
          moveOutDate: null,
          kind: row.resident!.kind,
          isPayer: row.resident!.isPayer,
          createdAt: now,
          updatedAt: now,
        })),
      ),
    )
    for (const p of live)
      for (const { row, resident } of p.changedResidents)
        await repo.updateResident(db, resident.id, {
          fullName: row.resident!.fullName,
          moveInDate: row.resident!.moveInDate,
          kind: row.resident!.kind,
          isPayer: row.resident!.isPayer,
          updatedAt: now,
        })

    // One payer a household: the file's payer takes the place of any other.
    const payers = live.flatMap((p) => [
      ...p.newResidents.filter((x) => x.row.resident!.isPayer).map((x) => ({ household: p.id, id: x.id })),
      ...p.changedResidents.filter((x) => x.row.resident!.isPayer).map((x) => ({ household: p.id, id: x.resident.id })),
    ])
    if (payers.length)
      await repo.clearPayers(
        db,
        payers.map((x) => x.household),
        new Set(payers.map((x) => x.id)),
      )

    // Sync: the association's staff see each changed household, and its residents their own.
    for (const p of live) {
      await recordChange(db, clock, 'household', p.id, 'upsert', { companyId })
      const userIds = [...p.newResidents.map((x) => userOf.get(x.row.resident!.emailAddress)!), ...p.changedResidents.map((x) => x.resident.userId)]
      if (userIds.length) await recordChangesFor(db, clock, 'household', [p.id], 'upsert', [...new Set(userIds)])
    }
    return userOf
  }
}

/** An imported part's description: its column's header in the caller's language ("Boligafgift", "Aconto varme"). */
const partLabel = (type: PartType, locale: Locale): string => {
  const column = (Object.keys(partOfColumn) as (keyof typeof partOfColumn)[]).find((c) => partOfColumn[c] === type)
  return column ? columnLabels[column][locale] : type
}

export const createHouseholdImportService = (deps: HouseholdImportDeps) => new HouseholdImportService(deps)

/**
 * What an answer other than success means for a change (docs/OFFLINE.md "Conflicts and refusals"), beyond the drainer's
 * general rules:
 * - a kind may declare that 404/410 means its goal already holds (marking read, or deleting, a
 *   notification deleted elsewhere): the change is written off quietly and the local row dropped;
 * - a 403/404 for a company the user no longer belongs to is a lost access, told in words with the
 *   company's name (`Refusal`), not the server's "Agreement not found".
 */
import type { SyncEntity } from '../../shared/contract/sync'
import type { LocalDb, Mutation } from './local-db'
import type { SystemRole } from '../../shared/domain/roles'

const goneIsDone = new Set<string>()

/** Declares that for these kinds a 404/410 answer means what was asked already holds. */
export function goalHoldsWhenGone(...kinds: string[]): void {
  for (const kind of kinds) goneIsDone.add(kind)
}

/** Whether a 404/410 answer to this change means its goal holds (every DELETE, and declared kinds). */
export const isGoneDone = (m: Pick<Mutation, 'kind' | 'method'>): boolean => m.method === 'DELETE' || goneIsDone.has(m.kind)

/** Why the server refused a change, when the drainer found out more than its message. */
export interface Refusal {
  code: 'NO_ACCESS'
  companyId: string
  /** The company's name from the local copy, when it was refused. */
  companyName: string
  /** The thing the change was about, in the local copy's words (an agreement's number, a message's subject). */
  subject: { entity: Mutation['entity']; name: string | null }
}

/**
 * Where a change belongs, noted when it is made (`engine.mutate`): the company's name and what the
 * change is about, from the local copy as the user saw it. A pull after access was lost drops
 * those rows, so a refusal found later still has the names to say it in words.
 */
export interface ChangeContext {
  companyId: string
  companyName: string
  subject: Refusal['subject']
}

/** A mutation as stored, with where it belongs and the refusal the drainer found (when it found one). */
export type RefusedMutation = Mutation & { refusal?: Refusal; context?: ChangeContext }

export const refusalOf = (m: Mutation): Refusal | undefined => (m as RefusedMutation).refusal

const stringField = (value: unknown, field: string): string | null => {
  const v = value && typeof value === 'object' ? (value as Record<string, unknown>)[field] : undefined
  return typeof v === 'string' && v !== '' ? v : null
}

/** The company a change belongs to: named in its body, preview or path, or the company of its row. */
export async function companyOfMutation(db: LocalDb, m: Pick<Mutation, 'entity' | 'entityId' | 'body' | 'preview' | 'path'>): Promise<string | null> {
  const named = stringField(m.body, 'companyId') ?? stringField(m.preview, 'companyId')
  if (named) return named
  const inPath = /^\/compan(?:y|ies)\/([^/?]+)/.exec(m.path)?.[1]
  if (inPath) return inPath
  if (m.entity === 'company') return m.entityId
  if (!m.entityId) return null
  return stringField(await db.table_(m.entity).get(m.entityId), 'companyId')
}

/** How the local copy names the row a change is about (null when it has no name to show). */
async function subjectOf(db: LocalDb, m: Pick<Mutation, 'entity' | 'entityId' | 'body' | 'preview'>): Promise<Refusal['subject']> {
  const row = m.entityId ? await db.table_(m.entity).get(m.entityId) : undefined
  const source = row ?? { ...(m.preview ?? {}), ...((m.body as Record<string, unknown> | undefined) ?? {}) }
  const field = (
    {
      agreement: 'externalId',
      charge: 'description',
      message: 'subject',
      company: 'name',
      address: 'street',
      member: 'fullName',
      paymentProvider: 'name',
      invoice: 'invoiceNumber',
      notification: 'title',
      document: 'title',
      assembly: 'title',
      proposal: 'title',
      listing: 'title',
      lendingItem: 'title',
      loan: 'fromDate',
      forumThread: 'title',
      forumPost: 'body',
      article: 'title',
      specialist: 'name',
      household: 'street',
    } satisfies Record<SyncEntity, string>
  )[m.entity]
  return { entity: m.entity, name: stringField(source, field) }
}

export interface AccessAnswer {
  status: number
  body: unknown
}

/**
 * After a 403/404: whether the user lost access to the change's company. Only a company the local
 * copy holds counts (the user could see it when they made the change) and only if the server no
 * longer lists it among theirs; `account` asks the server once (GET /account/info), or answers
 * null when it cannot be reached (then the server's own message stands).
 */
export async function lostAccess(db: LocalDb, m: Mutation, account: () => Promise<AccessAnswer>): Promise<Refusal | null> {
  const context = (m as RefusedMutation).context
  const companyId = context?.companyId ?? (await companyOfMutation(db, m))
  if (!companyId) return null
  const company = await db.companies.get(companyId)
  if (!company && !context) return null
  const answer = await account()
  if (answer.status !== 200 || !answer.body || typeof answer.body !== 'object') return null
  const info = answer.body as { userRole?: SystemRole; companies?: unknown }
  // The super admin sees every company without a membership: a refusal is never lost access.
  if (info.userRole === 'SUPERADMIN') return null
  const companies = Array.isArray(info.companies) ? (info.companies as Array<{ id?: unknown }>) : []
  if (companies.some((c) => c.id === companyId)) return null
  const now = await subjectOf(db, m)
  return {
    code: 'NO_ACCESS',
    companyId,
    companyName: context?.companyName || stringField(company, 'name') || '',
    subject: context?.subject.name ? context.subject : now,
  }
}

/**
 * The company and subject of a change about to be queued, from the local copy (undefined for a
 * change that belongs to no company the user sees as staff, e.g. their notifications).
 */
export async function contextOf(db: LocalDb, m: Pick<Mutation, 'entity' | 'entityId' | 'body' | 'preview' | 'path'>): Promise<ChangeContext | undefined> {
  const companyId = await companyOfMutation(db, m)
  if (!companyId) return undefined
  const company = await db.companies.get(companyId)
  if (!company) return undefined
  return { companyId, companyName: stringField(company, 'name') ?? '', subject: await subjectOf(db, m) }
}

/**
 * A change that could not be stored on this device (IndexedDB full, or failing): it is NOT kept
 * and will not be sent. `reason` tells the user what to do.
 */
export class NotKeptError extends Error {
  readonly reason: 'quota' | 'storage'
  constructor(readonly original: unknown) {
    super(`The change was not stored: ${describe(original)}`)
    this.name = 'NotKeptError'
    this.reason = isQuota(original) ? 'quota' : 'storage'
  }
}

const describe = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error))

/** A quota error, also as Dexie wraps it (its `inner` error, or an abort caused by one). */
function isQuota(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 3) return false
  const e = error as { name?: unknown; message?: unknown; inner?: unknown; cause?: unknown }
  if (e.name === 'QuotaExceededError' || (typeof e.message === 'string' && /quota/i.test(e.message))) return true
  return isQuota(e.inner, depth + 1) || isQuota(e.cause, depth + 1)
}

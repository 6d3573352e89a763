/**
 * Creating, editing and terminating agreements (docs/PRODUCT.md §2, decision 0024): queued in the outbox, shown at
 * once (also offline, marked "not yet synced"), sent exactly once, and replaced by the server's
 * own row when it answers. Accept and reject need Vipps MobilePay and are not queued (see
 * agreement-actions.ts).
 */
import { msg } from '@lingui/core/macro'
import type { Agreement, AgreementPartInput, CancelAgreementRequest, CreateAgreementRequest, UpdateAgreementRequest } from '../../../shared/contract/agreements'
import { DEFAULT_VAT_RATE, priceOfParts } from '../../../shared/domain/agreement-parts'
import { formats } from '../../sync/field-format'
import type { Mutation, Row } from '../../sync/local-db'
import { same, type Values } from '../../sync/merge'
import { registerMutationKind, type EditField } from '../../sync/mutation-kinds'
import { viewRowOf } from '../../sync/outbox'
import { answerAsRow, reduce } from '../../sync/optimistic'
import { pendingCreate as pendingCreateOf } from '../../sync/queue-reads'
import type { SyncHandle } from '../../sync/use-sync'
import { partTypeLabels, paymentPeriodLabels } from './labels'

export const AGREEMENT_CREATE = 'agreement.create'
export const AGREEMENT_UPDATE = 'agreement.update'
export const AGREEMENT_TERMINATE = 'agreement.terminate'

/** Parts as the server stores them: every part with its id, VAT rate and currency. */
export const normalizeParts = (parts: readonly AgreementPartInput[], newPartId: () => string) =>
  parts.map((p) => ({
    id: p.id ?? newPartId(),
    type: p.type,
    description: p.description.trim(),
    price: p.price,
    vatRate: p.vatRate ?? DEFAULT_VAT_RATE,
    currency: 'DKK' as const,
  }))

/** What the list and view show of an agreement created here, until the server's row arrives. */
export type CreatePreview = Pick<Agreement, 'member' | 'addresses'>

registerMutationKind(AGREEMENT_CREATE, {
  reducer: reduce.insert((m) => {
    const body = m.body as CreateAgreementRequest & { id: string }
    const preview = m.preview as CreatePreview | undefined
    const parts = normalizeParts(body.parts, () => crypto.randomUUID())
    const row: Omit<Agreement, 'version'> = {
      id: body.id,
      externalId: '',
      companyId: body.companyId,
      paymentProviderId: body.paymentProviderId,
      member: preview?.member ?? { userId: '', title: '', fullName: body.memberName, emailAddress: body.emailAddress, isVerified: false },
      addresses: preview?.addresses ?? [],
      price: priceOfParts(parts),
      currency: 'DKK',
      status: 'CREATED',
      overdue: false,
      paymentPeriod: body.paymentPeriod,
      startPaymentDate: body.startPaymentDate,
      nextRegularPaymentDate: body.startPaymentDate,
      terminationDate: null,
      finalPaymentRequired: false,
      parts,
      providerAgreementId: null,
      createdAt: new Date(m.createdAt).toISOString(),
      updatedAt: new Date(m.createdAt).toISOString(),
    }
    return { ...row, _version: 0 } as Row
  }),
  label: msg`Create agreement`,
  failed: msg`Failed to create agreement`,
  answeredRow: answerAsRow,
})

/** A part as the merge compares it (the row's and the request's shapes differ in `currency`). */
type ComparablePart = { id?: string; type: string; description: string; price: number; vatRate: number }
const comparableParts = (parts: unknown): ComparablePart[] =>
  ((parts as ComparablePart[] | undefined) ?? []).map((p) => ({
    ...(p.id ? { id: p.id } : {}),
    type: p.type,
    description: p.description,
    price: p.price,
    vatRate: p.vatRate ?? DEFAULT_VAT_RATE,
  }))

/** The fields an agreement edit can change, as the conflict screen names and shows them. */
export const agreementEditFields: EditField[] = [
  { name: 'nextRegularPaymentDate', label: msg`Next payment date`, format: formats.date },
  { name: 'paymentPeriod', label: msg`Payment period`, format: formats.oneOf(paymentPeriodLabels) },
  {
    name: 'parts',
    list: true,
    label: msg`Parts`,
    fromRow: (row) => comparableParts(row.parts),
    // One part as a line: "Heating — 450,00 kr." (the description, or the type when it says the same).
    format: (value, ctx) => {
      const p = value as ComparablePart
      const type = partTypeLabels[p.type as keyof typeof partTypeLabels]
      const typeText = type ? ctx.i18n._(type) : p.type
      const name = !p.description || p.description === typeText ? typeText : `${p.description} (${typeText})`
      const vat = p.vatRate ? ctx.i18n._(msg`incl. ${p.vatRate} % VAT`) : ''
      return [`${name} — ${formats.money(p.price, ctx)}`, vat].filter(Boolean).join(', ')
    },
  },
]

registerMutationKind(AGREEMENT_UPDATE, {
  reducer: reduce.patch((_row, m) => {
    const body = m.body as UpdateAgreementRequest
    const parts = body.parts ? normalizeParts(body.parts, () => crypto.randomUUID()) : undefined
    return {
      ...(body.nextRegularPaymentDate ? { nextRegularPaymentDate: body.nextRegularPaymentDate } : {}),
      ...(body.paymentPeriod ? { paymentPeriod: body.paymentPeriod } : {}),
      ...(parts ? { parts, price: priceOfParts(parts) } : {}),
    }
  }),
  label: msg`Edit agreement`,
  failed: msg`Failed to update agreement`,
  answeredRow: answerAsRow,
  merge: {
    fields: () => agreementEditFields,
    mine: (m) => {
      const body = m.body as Values
      const values: Values = {}
      if (body.nextRegularPaymentDate !== undefined) values.nextRegularPaymentDate = body.nextRegularPaymentDate
      if (body.paymentPeriod !== undefined) values.paymentPeriod = body.paymentPeriod
      if (body.parts !== undefined) values.parts = comparableParts(body.parts)
      return values
    },
    body: (values) => {
      const parts = values.parts as ComparablePart[] | undefined
      return {
        ...(values.nextRegularPaymentDate !== undefined ? { nextRegularPaymentDate: values.nextRegularPaymentDate } : {}),
        ...(values.paymentPeriod !== undefined ? { paymentPeriod: values.paymentPeriod } : {}),
        ...(parts ? { parts: parts.map((p) => ({ ...p, currency: 'DKK' })), price: priceOfParts(parts), currency: 'DKK' } : {}),
      }
    },
  },
})

registerMutationKind(AGREEMENT_TERMINATE, {
  reducer: reduce.patch((_row, m) => {
    const body = m.body as CancelAgreementRequest
    // Without a last payment it ends at once; with one, it ends when that payment is settled.
    return {
      terminationDate: body.terminationDate,
      finalPaymentRequired: body.finalPaymentRequired,
      ...(body.finalPaymentRequired ? {} : { status: 'CANCELED' }),
    }
  }),
  label: msg`Termination`,
  failed: msg`Failed to terminate agreement`,
  answeredRow: answerAsRow,
})

/** The create of this agreement, while it still waits in the outbox: later changes depend on it. */
const pendingCreate = ({ db }: SyncHandle, id: string): Promise<Mutation | undefined> => pendingCreateOf(db, id, AGREEMENT_CREATE)

/** POST /agreement with a client-made id, so the new agreement keeps it (and can be edited offline). */
export const createAgreement = ({ engine }: SyncHandle, body: CreateAgreementRequest & { id: string }, preview: CreatePreview) =>
  engine.mutate({ kind: AGREEMENT_CREATE, method: 'POST', path: '/agreement', body, preview, entity: 'agreement', entityId: body.id })

/**
 * Only what the user changed against the row the form was opened on: an unchanged field is not
 * sent, so it can never overwrite a colleague's change to it (docs/OFFLINE.md "Conflicts and refusals"). New parts get their id
 * here, so a merge after a 412 can tell them apart. Null when nothing changed.
 */
export function changedFields(opened: Record<string, unknown>, body: UpdateAgreementRequest): UpdateAgreementRequest | null {
  const changes: UpdateAgreementRequest = {}
  if (body.nextRegularPaymentDate !== undefined && body.nextRegularPaymentDate !== opened.nextRegularPaymentDate)
    changes.nextRegularPaymentDate = body.nextRegularPaymentDate
  if (body.paymentPeriod !== undefined && body.paymentPeriod !== opened.paymentPeriod) changes.paymentPeriod = body.paymentPeriod
  if (body.parts !== undefined && !same(comparableParts(body.parts), comparableParts(opened.parts))) {
    const parts = normalizeParts(body.parts, () => crypto.randomUUID())
    Object.assign(changes, { parts, price: priceOfParts(parts), currency: 'DKK' })
  }
  return Object.keys(changes).length ? changes : null
}

/**
 * PATCH /agreement/{id} with the fields the user changed, If-Match the version of the row the
 * form was opened on (`opened`, whose values are the base of a later three-way merge).
 * Resolves to null when nothing changed (nothing is queued).
 */
export async function updateAgreement(handle: SyncHandle, opened: Record<string, unknown> & { id: string; _version: number }, edit: UpdateAgreementRequest) {
  // Given only the id and version, the row as it shows now is what the user edited.
  const agreement = 'parts' in opened ? opened : ((await viewRowOf(handle.db, 'agreement', opened.id)) ?? opened)
  const body = changedFields(agreement, edit)
  if (!body) return null
  const create = await pendingCreate(handle, agreement.id)
  return handle.engine.mutate({
    kind: AGREEMENT_UPDATE,
    method: 'PATCH',
    path: `/agreement/${agreement.id}`,
    body,
    baseRow: agreement,
    entity: 'agreement',
    entityId: agreement.id,
    // A row made here has no server version yet: its create answers with version 1.
    baseVersion: create ? 1 : agreement._version,
    dependsOn: create?.mutationId,
  })
}

/** POST /agreement/{id}/cancel */
export async function terminateAgreement(handle: SyncHandle, agreement: { id: string }, body: CancelAgreementRequest) {
  const create = await pendingCreate(handle, agreement.id)
  return handle.engine.mutate({
    kind: AGREEMENT_TERMINATE,
    method: 'POST',
    path: `/agreement/${agreement.id}/cancel`,
    body,
    entity: 'agreement',
    entityId: agreement.id,
    dependsOn: create?.mutationId,
    // A money action: it may end the payments and make a last one.
    money: true,
  })
}

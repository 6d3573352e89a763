/**
 * Lending through the outbox (decision 0064): a member lists an item, asks to borrow one, and the
 * parties take the loan's steps (accept, decline, cancel, confirm, handover, return), also
 * offline; the server's answered row replaces the local guess, and a step the loan has moved past
 * comes back as a refusal on the loan's page. The photo needs a connection (lending-api.ts).
 */
import { msg } from '@lingui/core/macro'
import type { CreateLendingItemRequest, LendingItem, Loan, LoanRequest, UpdateLendingItemRequest } from '../../../shared/contract/lending'
import { formats } from '../../sync/field-format'
import type { Row } from '../../sync/local-db'
import type { Values } from '../../sync/merge'
import { registerMutationKind, type EditField } from '../../sync/mutation-kinds'
import { answerAsRow, reduce } from '../../sync/optimistic'
import type { SyncHandle } from '../../sync/use-sync'

export const ITEM_CREATE = 'lendingItem.create'
export const ITEM_UPDATE = 'lendingItem.update'
export const ITEM_DELETE = 'lendingItem.delete'
export const LOAN_REQUEST = 'loan.request'
export const loanSteps = ['accept', 'decline', 'cancel', 'confirm', 'handover', 'return'] as const
export type LoanStep = (typeof loanSteps)[number]

registerMutationKind(ITEM_CREATE, {
  reducer: reduce.insert((m) => {
    const body = m.body as CreateLendingItemRequest & { id: string }
    const lender = m.preview as LendingItem['lender']
    const at = new Date(m.createdAt).toISOString()
    const row: Omit<LendingItem, 'version'> = {
      id: body.id,
      companyId: body.companyId,
      lender,
      title: body.title.trim(),
      description: (body.description ?? '').trim(),
      rules: (body.rules ?? '').trim(),
      location: (body.location ?? '').trim(),
      depositOre: body.depositOre ?? null,
      photoId: null,
      archivedAt: null,
      createdAt: at,
      updatedAt: at,
    }
    return { ...row, _version: 0 } as Row
  }),
  label: msg`New item to lend`,
  failed: msg`Failed to save the item`,
  answeredRow: answerAsRow,
})

export const itemEditFields: EditField[] = [
  { name: 'title', label: msg`Title`, format: formats.text },
  { name: 'description', label: msg`Description`, format: formats.text },
  { name: 'rules', label: msg`Rules`, format: formats.text },
  { name: 'location', label: msg`Where to pick it up`, format: formats.text },
  { name: 'depositOre', label: msg`Deposit`, format: formats.money },
]

const itemValues = (body: UpdateLendingItemRequest): Values => {
  const values: Values = {}
  for (const k of ['title', 'description', 'rules', 'location'] as const) if (body[k] !== undefined) values[k] = body[k].trim()
  if (body.depositOre !== undefined) values.depositOre = body.depositOre
  return values
}

registerMutationKind(ITEM_UPDATE, {
  reducer: reduce.patch((_row, m) => itemValues(m.body as UpdateLendingItemRequest)),
  label: msg`Edit item`,
  failed: msg`Failed to save the item`,
  answeredRow: answerAsRow,
  merge: { fields: () => itemEditFields, mine: (m) => itemValues(m.body as UpdateLendingItemRequest), body: (values) => values },
})

registerMutationKind(ITEM_DELETE, { reducer: reduce.remove(), label: msg`Delete item`, failed: msg`Failed to delete the item` })

registerMutationKind(LOAN_REQUEST, {
  reducer: reduce.insert((m) => {
    const body = m.body as LoanRequest & { id: string }
    const preview = m.preview as { itemId: string; companyId: string; borrower: Loan['borrower']; lenderUserId: string | null; depositOre: number | null }
    const at = new Date(m.createdAt).toISOString()
    const row: Omit<Loan, 'version'> = {
      id: body.id,
      ...preview,
      mine: 'borrower',
      fromDate: body.fromDate,
      toDate: body.toDate,
      status: 'REQUESTED',
      message: (body.message ?? '').trim(),
      conditionOut: '',
      handoverCondition: null,
      conditionBack: null,
      damageNote: null,
      deposit: preview.depositOre ? 'PENDING' : 'NONE',
      lenderConfirmedAt: null,
      lenderConfirmedBy: null,
      borrowerConfirmedAt: null,
      handedOverAt: null,
      returnedAt: null,
      createdAt: at,
      updatedAt: at,
    }
    return { ...row, _version: 0 } as Row
  }),
  label: msg`Request to borrow`,
  failed: msg`Failed to send the request`,
  answeredRow: answerAsRow,
})

/** The local guess of a step's result (the server's answer replaces it). */
const guess: Record<LoanStep, (row: Record<string, unknown>, at: string) => Record<string, unknown>> = {
  accept: () => ({ status: 'ACCEPTED' }),
  decline: () => ({ status: 'DECLINED' }),
  cancel: () => ({ status: 'CANCELLED' }),
  confirm: (row, at) => (row.mine === 'lender' ? { lenderConfirmedAt: at } : { borrowerConfirmedAt: at }),
  handover: (_row, at) => ({ status: 'HANDED_OVER', handedOverAt: at }),
  return: (_row, at) => ({ status: 'RETURNED', returnedAt: at }),
}
const stepLabels = {
  accept: [msg`Accept request`, msg`Failed to accept the request`],
  decline: [msg`Decline request`, msg`Failed to decline the request`],
  cancel: [msg`Cancel loan`, msg`Failed to cancel the loan`],
  confirm: [msg`Confirm contract`, msg`Failed to confirm the contract`],
  handover: [msg`Record handover`, msg`Failed to record the handover`],
  return: [msg`Record return`, msg`Failed to record the return`],
} as const
for (const step of loanSteps)
  registerMutationKind(`loan.${step}`, {
    reducer: reduce.patch((row, m) => guess[step](row as Record<string, unknown>, new Date(m.createdAt).toISOString())),
    label: stepLabels[step][0],
    failed: stepLabels[step][1],
    answeredRow: answerAsRow,
  })

registerMutationKind('loan.terms', {
  reducer: reduce.patch((_row, m) => ({ ...(m.body as Record<string, unknown>), lenderConfirmedAt: null, borrowerConfirmedAt: null })),
  label: msg`Change contract`,
  failed: msg`Failed to change the contract`,
  answeredRow: answerAsRow,
})

/** POST /lending with a client-made id, so an item listed offline keeps it. */
export const createItem = ({ engine }: SyncHandle, body: CreateLendingItemRequest & { id: string }, lender: LendingItem['lender']) =>
  engine.mutate({ kind: ITEM_CREATE, method: 'POST', path: '/lending', body, preview: lender, entity: 'lendingItem', entityId: body.id })

/** PATCH /lending/{id} with the fields that changed against the row the form opened on (If-Match); null when nothing changed. */
export function updateItem(handle: SyncHandle, opened: Record<string, unknown> & { id: string; _version: number }, edit: UpdateLendingItemRequest) {
  const body = Object.fromEntries(Object.entries(itemValues(edit)).filter(([k, v]) => (opened[k] ?? null) !== v)) as UpdateLendingItemRequest
  if (Object.keys(body).length === 0) return null
  return handle.engine.mutate({
    kind: ITEM_UPDATE,
    method: 'PATCH',
    path: `/lending/${opened.id}`,
    body,
    baseRow: opened,
    entity: 'lendingItem',
    entityId: opened.id,
    baseVersion: opened._version,
  })
}

export const deleteItem = (handle: SyncHandle, row: { id: string; _version: number }) =>
  handle.engine.mutate({ kind: ITEM_DELETE, method: 'DELETE', path: `/lending/${row.id}`, entity: 'lendingItem', entityId: row.id, baseVersion: row._version })

/** POST /lending/{id}/loans with a client-made id, so a request made offline is one loan. */
export const requestLoan = (
  { engine }: SyncHandle,
  itemId: string,
  body: LoanRequest & { id: string },
  preview: { itemId: string; companyId: string; borrower: Loan['borrower']; lenderUserId: string | null; depositOre: number | null },
) => engine.mutate({ kind: LOAN_REQUEST, method: 'POST', path: `/lending/${itemId}/loans`, body, preview, entity: 'loan', entityId: body.id })

export const LOAN_ACCEPT = 'loan.accept'
export const LOAN_DECLINE = 'loan.decline'
export const LOAN_CANCEL = 'loan.cancel'
export const LOAN_CONFIRM = 'loan.confirm'
export const LOAN_HANDOVER = 'loan.handover'
export const LOAN_RETURN = 'loan.return'
export const LOAN_TERMS = 'loan.terms'

type Opened = { id: string; _version: number }
const target = (row: Opened, step: string) => ({
  method: 'POST' as const,
  path: `/loans/${row.id}/${step}`,
  entity: 'loan' as const,
  entityId: row.id,
  baseVersion: row._version,
})

/** Each step of a loan, against the version the page showed (If-Match); the same step again is harmless. */
const steps: Record<LoanStep | 'terms', (h: SyncHandle, row: Opened, body?: Record<string, unknown>) => ReturnType<SyncHandle['engine']['mutate']>> = {
  accept: (h, row) => h.engine.mutate({ kind: LOAN_ACCEPT, ...target(row, 'accept') }),
  decline: (h, row) => h.engine.mutate({ kind: LOAN_DECLINE, ...target(row, 'decline') }),
  cancel: (h, row) => h.engine.mutate({ kind: LOAN_CANCEL, ...target(row, 'cancel') }),
  confirm: (h, row) => h.engine.mutate({ kind: LOAN_CONFIRM, ...target(row, 'confirm') }),
  handover: (h, row, body) => h.engine.mutate({ kind: LOAN_HANDOVER, ...target(row, 'handover'), body: body ?? {} }),
  return: (h, row, body) => h.engine.mutate({ kind: LOAN_RETURN, ...target(row, 'return'), body }),
  terms: (h, row, body) => h.engine.mutate({ kind: LOAN_TERMS, ...target(row, 'terms'), body }),
}

export const loanStep = (handle: SyncHandle, row: Opened, step: LoanStep | 'terms', body?: Record<string, unknown>) => steps[step](handle, row, body)

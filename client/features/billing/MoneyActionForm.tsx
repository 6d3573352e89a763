import { useEffect, useState, type FormEvent, type ReactNode } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { MAX_CHARGE_DESCRIPTION, MIN_BILLING_AMOUNT_ORE } from '../../../shared/contract/billing'
import { messages } from '../../../shared/i18n-messages'
import { NotKeptNotice, QueuedNotice } from '../../components/sync/QueuedNotice'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { TextField } from '../../components/ui/TextField'
import { formatMoney } from '../../lib/format'
import { oreToKronerInput, parseKroner } from '../../lib/kroner-input'
import { useLocale } from '../../i18n/use-locale'
import type { Mutation } from '../../sync/local-db'
import { discard } from '../../sync/outbox'
import { storedChange } from '../../sync/queue-reads'
import { NotKeptError } from '../../sync/outcomes'
import { useOutbox, useSync, useSyncStatus } from '../../sync/use-sync'
import { useRefusalText } from '../sync-status/refusal'

export interface MoneyInput {
  /** øre */
  amount: number
  description: string
}

type Field = 'amount' | 'description'

/**
 * Where a submitted money action is (docs/decisions/0045-money-actions-say-where-they-are.md): only the server's acceptance is success.
 * - `queued`: saved on this device, waiting for the connection (the browser is offline) or for
 *   the server to answer (the browser is online, but the server is down or unreachable);
 * - `sending`: on its way, or waiting for the server's answer;
 * - `accepted`: the server has it (it left the outbox confirmed);
 * - `rejected`: the server refused it (its message, or why in words); the form keeps what was typed;
 * - `notKept`: it could not even be stored on this device (quota, a storage error): NOT kept.
 */
export type MoneyActionPhase =
  | { phase: 'idle' }
  | { phase: 'queued'; waitingFor: 'connection' | 'server' }
  | { phase: 'sending' }
  | { phase: 'accepted' }
  | { phase: 'rejected'; message: string; mutation?: Mutation }
  | { phase: 'notKept'; error: NotKeptError }

/**
 * The phase of a queued mutation, from the live outbox. `seen` is whether it was ever found there:
 * a mutation that has left the outbox after being seen was confirmed by the server (the drainer
 * removes it only then; a refused one stays as `rejected`); one not seen yet is still on its way
 * into the live view of the queue. `online` is whether the server was reachable at the last sync,
 * `browserOnline` whether the browser has a connection at all.
 */
export function phaseOf(queue: readonly Mutation[], seq: number, online: boolean, seen: boolean, browserOnline = online): MoneyActionPhase {
  const m = queue.find((q) => q.seq === seq)
  if (!m) return seen ? { phase: 'accepted' } : { phase: 'sending' }
  if (m.status === 'rejected' || m.status === 'conflict') return { phase: 'rejected', message: m.lastError ?? '', mutation: m }
  if (m.status === 'sending') return { phase: 'sending' }
  // Queued: offline, or the last attempt found no server, means it waits for the connection or the server.
  if (!browserOnline) return { phase: 'queued', waitingFor: 'connection' }
  return !online || m.attempts > 0 ? { phase: 'queued', waitingFor: 'server' } : { phase: 'sending' }
}

const browserIsOnline = () => (typeof navigator === 'undefined' ? true : navigator.onLine)

/**
 * The amount-and-description form of a refund and a one-time charge (docs/PRODUCT.md §2, §5, §8): kroner
 * typed with a comma or a point become exact øre; `check` applies the shared schema (and any
 * limit) and answers a message per field. `submit` queues the action in the outbox (so offline it
 * is kept and sent once); the form then says truthfully where it is — "Queued — will be sent when
 * online", "Sending…" — and shows `success` only once the server accepted it. A refusal is shown
 * with the server's message and the typed values kept.
 */
export function MoneyActionForm({
  label,
  submitLabel,
  success,
  check,
  submit,
  children,
}: {
  label: string
  submitLabel: ReactNode
  success: string
  check: (input: { amount: number | null; description: string }) => Partial<Record<Field, string>>
  submit: (input: MoneyInput) => Promise<Mutation>
  children?: ReactNode
}) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const sync = useSync()
  const online = useSyncStatus(sync).online
  const refusalText = useRefusalText()
  const queue = useOutbox(sync)
  const [amount, setAmount] = useState('')
  const [description, setDescription] = useState('')
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const [pending, setPending] = useState<number | null>(null)
  const [seen, setSeen] = useState(false)
  const [outcome, setOutcome] = useState<MoneyActionPhase>({ phase: 'idle' })
  const [busy, setBusy] = useState(false)

  // Follow the queued action until the server accepted or refused it.
  const inQueue = pending !== null && queue !== undefined && queue.some((q) => q.seq === pending)
  const phase: MoneyActionPhase = pending !== null && queue ? phaseOf(queue, pending, online, seen || inQueue, browserIsOnline()) : outcome
  useEffect(() => {
    if (pending === null || !queue) return
    if (inQueue && !seen) setSeen(true)
    // It was stored when submitted; if the live view never showed it, ask the queue itself.
    if (!inQueue && !seen && sync) {
      const seq = pending
      void storedChange(sync.db, { seq }).then((m) => {
        if (!m) setSeen(true)
      })
    }
    if (phase.phase === 'accepted') {
      setAmount('')
      setDescription('')
    }
    if (phase.phase === 'accepted' || phase.phase === 'rejected') {
      setOutcome(phase)
      setPending(null)
      // A refused action leaves the queue: the form shows why and keeps what was typed.
      if (phase.phase === 'rejected' && sync) {
        const m = queue.find((q) => q.seq === pending)
        if (m) void discard(sync.db, m.mutationId)
      }
    }
  }, [pending, queue, phase, sync, inQueue, seen])

  const waiting = phase.phase === 'queued' || phase.phase === 'sending'

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (waiting || busy) return
    setOutcome({ phase: 'idle' })
    const ore = parseKroner(amount)
    const problems = check({ amount: ore, description })
    if (ore === null) problems.amount = i18n._(messages.amountInvalid.id)
    if (ore === null || Object.keys(problems).length > 0) return setErrors(problems)
    setErrors({})
    setBusy(true)
    try {
      let m: Mutation
      try {
        m = await submit({ amount: ore, description: description.trim() })
      } catch (error) {
        // Not stored on this device: nothing will be sent. Say so; the typed values stay.
        if (error instanceof NotKeptError) return setOutcome({ phase: 'notKept', error })
        throw error
      }
      const stored = sync ? await storedChange(sync.db, { mutationId: m.mutationId }) : undefined
      if (stored?.seq !== undefined) {
        setSeen(false)
        setPending(stored.seq)
      } else {
        // Gone before we looked: the server answered already (a refusal stays in the queue).
        setOutcome({ phase: 'accepted' })
      }
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="form card page-narrow" noValidate onSubmit={(e) => void onSubmit(e)} aria-label={label}>
      {children}
      {phase.phase === 'accepted' && (
        <Alert variant="success">
          {success} <Trans>The server sends it to Vipps MobilePay.</Trans>
        </Alert>
      )}
      {phase.phase === 'queued' && <QueuedNotice waitingFor={phase.waitingFor} />}
      {phase.phase === 'notKept' && <NotKeptNotice error={phase.error} />}
      {phase.phase === 'sending' && (
        <Alert variant="info">
          <Trans>Sending to the server…</Trans>
        </Alert>
      )}
      {phase.phase === 'rejected' && (
        <Alert variant="error">{(phase.mutation && refusalText(phase.mutation)) || phase.message || t`The server refused the request.`}</Alert>
      )}
      <TextField
        label={t`Amount (DKK)`}
        inputMode="decimal"
        autoComplete="off"
        value={amount}
        onChange={(e) => setAmount(e.target.value)}
        error={errors.amount}
        hint={t`At least ${formatMoney(MIN_BILLING_AMOUNT_ORE, locale)}, e.g. ${oreToKronerInput(25_000, locale)}`}
        required
        disabled={waiting}
      />
      <TextField
        label={t`Description`}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        error={errors.description}
        maxLength={MAX_CHARGE_DESCRIPTION}
        hint={t`Shown to the member in Vipps MobilePay and on the invoice (at most 45 characters).`}
        required
        disabled={waiting}
      />
      {!online && (
        <p className="field-hint">
          <Trans>You are offline. The request is saved on this device and sent once when you are back online.</Trans>
        </p>
      )}
      <div className="form-actions">
        <Button type="submit" busy={busy || waiting}>
          {submitLabel}
        </Button>
      </div>
    </form>
  )
}

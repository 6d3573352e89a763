import { useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useSearch } from '@tanstack/react-router'
import { RefundRequest } from '../../../shared/contract/billing'
import { messages } from '../../../shared/i18n-messages'
import { Alert } from '../../components/ui/Alert'
import { Spinner } from '../../components/ui/Spinner'
import { useLocale } from '../../i18n/use-locale'
import { formatDate, formatMoney } from '../../lib/format'
import { schemaMessages } from '../../lib/form-issues'
import { newId } from '../../lib/ids'
import { usePageTitle } from '../../lib/use-page-title'
import { useSync } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { roleOf } from '../shell/navigation'
import { refundCharge } from './billing-mutations'
import { MoneyActionForm } from './MoneyActionForm'
import { refundableOf, refundedOf, useCharges } from './use-charges'
import { useInvoice, useInvoices, type InvoiceView } from './use-invoices'

/** What is left to refund on each line of an invoice: its total less the credit notes' lines that credit it (decision 0044). */
export function linesLeft(
  invoice: InvoiceView | null | undefined,
  documents: readonly InvoiceView[],
): { id: string; label: string; left: number; total: number }[] {
  if (!invoice?.invoiceArticles) return []
  const credited = new Map<string, number>()
  for (const d of documents)
    if (d.kind === 'CREDIT_NOTE' && d.creditedInvoice?.id === invoice.id)
      for (const l of d.invoiceArticles ?? [])
        if (l.creditedArticleId) credited.set(l.creditedArticleId, (credited.get(l.creditedArticleId) ?? 0) + l.totalPriceIncludingVat)
  return [...invoice.invoiceArticles]
    .sort((a, b) => a.articleNumber.localeCompare(b.articleNumber))
    .map((a) => ({
      id: a.id,
      label: `${a.articleNumber} ${a.articleDescription}`,
      total: a.totalPriceIncludingVat,
      left: Math.max(0, a.totalPriceIncludingVat - (credited.get(a.id) ?? 0)),
    }))
}

/**
 * Refund part or all of a collected charge (docs/PRODUCT.md §2 "Refund create", §5; every role but a plain
 * user). The server makes a credit note for it. Checked here against what is left to refund, so
 * the form says at once what the server would refuse.
 */
export function RefundPage() {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const { chargeId, agreementId } = useSearch({ from: '/_auth/refunds/create' })
  const sync = useSync()
  const charges = useCharges(sync, agreementId ?? '')
  const user = useSession().user
  const charge = charges?.find((c) => c.id === chargeId)
  const invoice = useInvoice(sync, charge?.invoiceId ?? '')?.row as InvoiceView | null | undefined
  const documents = useInvoices(sync, charge?.companyId ?? null)
  const [chosen, setChosen] = useState<string[]>([])
  usePageTitle(t`Refund`)
  if (!sync || !charges) return <Spinner label={t`Loading payments`} />

  const lines = linesLeft(invoice, documents ?? [])
  const chosenLeft = lines.filter((l) => chosen.includes(l.id)).reduce((s, l) => s + l.left, 0)
  const left = charge ? refundableOf(charge) : 0
  const leftText = formatMoney(left, locale)
  const back =
    agreementId ?
      <Link to="/charges/$agreementId" params={{ agreementId }} className="btn btn-link">
        <Trans>Back to payments</Trans>
      </Link>
    : null
  return (
    <div className="page">
      <div className="page-header">
        <h1>
          <Trans>Refund</Trans>
        </h1>
        {back}
      </div>
      {!charge || !agreementId ?
        <Alert variant="error">
          <Trans>Payment not found</Trans>
        </Alert>
      : user && roleOf(user) === 'USER' ?
        <Alert variant="info">
          <Trans>Refunds are made by the association's staff.</Trans>
        </Alert>
      : left === 0 && !charge._pending ?
        <Alert variant="info">
          {i18n._(charge.status === 'EXECUTED' ? messages.refundTooLarge.id : messages.refundNeedsExecuted.id, { amount: leftText })}
        </Alert>
      : <MoneyActionForm
          label={t`Refund`}
          submitLabel={<Trans>Create refund</Trans>}
          success={i18n._(messages.refundCreated.id)}
          check={({ amount, description }) => {
            const problems = schemaMessages<'amount' | 'description'>(RefundRequest.safeParse({ chargeId: charge.id, amount: amount ?? 0, description }), i18n)
            if (!problems.amount && amount !== null && amount > left) problems.amount = i18n._(messages.refundTooLarge.id, { amount: leftText })
            if (!problems.amount && amount !== null && chosen.length > 0 && amount > chosenLeft)
              problems.amount = i18n._(messages.refundTooLargeForLines.id, { amount: formatMoney(chosenLeft, locale) })
            return problems
          }}
          submit={({ amount, description }) =>
            refundCharge(sync, agreementId, { id: newId(), chargeId: charge.id, amount, description, ...(chosen.length ? { lines: chosen } : {}) })
          }
        >
          <dl className="detail-list">
            <dt>
              <Trans>Payment</Trans>
            </dt>
            <dd>
              {charge.description}
              {charge.due ? ` · ${formatDate(charge.due, locale)}` : ''}
            </dd>
            <dt>
              <Trans>Collected</Trans>
            </dt>
            <dd>{formatMoney(charge.amount ?? 0, locale)}</dd>
            <dt>
              <Trans>Refunded so far</Trans>
            </dt>
            <dd>{formatMoney(refundedOf(charge), locale)}</dd>
            <dt>
              <Trans>Left to refund</Trans>
            </dt>
            <dd>{leftText}</dd>
          </dl>
          {lines.length > 1 && (
            <fieldset className="refund-lines">
              <legend>
                <Trans>Refund from these invoice lines</Trans>
              </legend>
              <p className="field-hint">
                <Trans>None chosen: the refund is spread over all lines in proportion. Each line of the credit note keeps its own description.</Trans>
              </p>
              {lines.map((l) => {
                const lineLeft = formatMoney(l.left, locale)
                return (
                  <label key={l.id} className="checkbox-row">
                    <input
                      type="checkbox"
                      checked={chosen.includes(l.id)}
                      disabled={l.left === 0}
                      onChange={(e) => setChosen((c) => (e.target.checked ? [...c, l.id] : c.filter((x) => x !== l.id)))}
                    />
                    <span>
                      {l.label}
                      <span className="muted cell-sub">
                        <Trans>{lineLeft} left to refund</Trans>
                      </span>
                    </span>
                  </label>
                )
              })}
            </fieldset>
          )}
        </MoneyActionForm>
      }
    </div>
  )
}

import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useParams } from '@tanstack/react-router'
import type { Invoice } from '../../../shared/contract/invoices'
import { Button } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { TableFrame } from '../../components/ui/Table'
import { useLocale } from '../../i18n/use-locale'
import { formatDate, formatMoney } from '../../lib/format'
import { usePageTitle } from '../../lib/use-page-title'
import { useSync } from '../../sync/use-sync'
import { Badge } from '../../components/ui/Badge'
import { chargeKindLabels, chargeStatusLabels, invoiceStatusLabels, settlementLabels } from './labels'
import { useInvoice } from './use-invoices'
import { RecordMissing } from '../../components/sync/RecordMissing'

/**
 * The printable invoice or credit note (docs/PRODUCT.md §2 "Invoice view"). Issued documents never change, so
 * the local copy is the document; printing leaves out everything but the paper.
 */
export function InvoicePage() {
  const { t } = useLingui()
  const { id } = useParams({ from: '/_auth/invoices/$id' })
  const sync = useSync()
  const state = useInvoice(sync, id)
  const invoice = state?.row as (Partial<Invoice> & { id: string }) | null | undefined
  const number = invoice?.invoiceNumber ?? ''
  usePageTitle(number ? t`Invoice ${number}` : t`Invoice`)
  const back = (
    <Link to="/invoices" className="btn btn-link no-print">
      <Trans>Back to Invoices</Trans>
    </Link>
  )

  if (!sync || !state || (!invoice && state.absent === 'loading')) return <Spinner label={t`Loading invoice`} />
  if (!invoice)
    return (
      <div className="page">
        <RecordMissing absent={state.absent === 'offline' ? 'offline' : 'notFound'} notFound={<Trans>Invoice not found</Trans>} />
        {back}
      </div>
    )
  return (
    <div className="page invoice-page">
      <div className="page-header no-print">
        {back}
        <Button variant="secondary" onClick={() => window.print()}>
          <Trans>Print</Trans>
        </Button>
      </div>
      <InvoiceDocument invoice={invoice} />
    </div>
  )
}

function InvoiceDocument({ invoice: inv }: { invoice: Partial<Invoice> & { id: string } }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  // Amounts in the reader's locale, as everywhere (docs/decisions/0084-money-in-the-readers-locale.md).
  const dkk = (ore: number) => formatMoney(ore, locale)
  const credit = inv.kind === 'CREDIT_NOTE'
  const articles = [...(inv.invoiceArticles ?? [])].sort((a, b) => a.articleNumber.localeCompare(b.articleNumber))
  const vatRate = inv.vatRate ?? 0
  const number = inv.invoiceNumber ?? ''
  const dueDate = inv.dueDate ? formatDate(inv.dueDate, locale) : ''
  const settlement = inv.settlement ?? null
  const writeOff = settlement?.kind === 'WRITTEN_OFF' && credit
  return (
    <article className="invoice card" aria-labelledby="invoice-title">
      <header className="invoice-head">
        <div>
          <p className="invoice-company">{inv.company?.name}</p>
          <p className="muted">
            <Trans>CVR</Trans> {inv.company?.cvr}
          </p>
          {inv.company?.address && <p className="muted">{inv.company.address}</p>}
        </div>
        <div className="invoice-meta">
          <h1 id="invoice-title">{credit ? t`Credit note ${number}` : t`Invoice ${number}`}</h1>
          <dl className="detail-list">
            {credit && inv.creditedInvoice && (
              <>
                <dt>
                  <Trans>Credits invoice</Trans>
                </dt>
                <dd>
                  <Link to="/invoices/$id" params={{ id: inv.creditedInvoice.id }}>
                    {inv.creditedInvoice.invoiceNumber}
                  </Link>
                </dd>
              </>
            )}
            <dt>
              <Trans>Issue date</Trans>
            </dt>
            <dd>{inv.issueDate ? formatDate(inv.issueDate, locale) : '-'}</dd>
            {!credit && (
              <>
                <dt>
                  <Trans>Due date</Trans>
                </dt>
                <dd>{dueDate || '-'}</dd>
              </>
            )}
            {settlement && (
              <>
                <dt>
                  <Trans>Settled</Trans>
                </dt>
                <dd className="invoice-settlement">
                  <Badge variant={settlement.kind === 'PAID_OUTSIDE' ? 'success' : 'neutral'}>{i18n._(settlementLabels[settlement.kind])}</Badge>{' '}
                  {formatDate(settlement.date, locale)}
                  {settlement.by ? ` · ${settlement.by}` : ''}
                  {settlement.note && <span className="cell-sub">{settlement.note}</span>}
                </dd>
              </>
            )}
            {!writeOff && (
              <>
                <dt>
                  <Trans>Payment status</Trans>
                </dt>
                <dd>
                  {inv.payment ?
                    chargeStatusLabels[inv.payment.status as keyof typeof chargeStatusLabels] ?
                      i18n._(chargeStatusLabels[inv.payment.status as keyof typeof chargeStatusLabels])
                    : inv.payment.status
                  : inv.status ?
                    i18n._(invoiceStatusLabels[inv.status])
                  : '-'}
                </dd>
              </>
            )}
            {inv.payment && (
              <>
                <dt>
                  <Trans>Type</Trans>
                </dt>
                <dd>
                  {inv.payment.paymentType === 'REFUND' ?
                    t`Refund`
                  : chargeKindLabels[inv.payment.paymentType as keyof typeof chargeKindLabels] ?
                    i18n._(chargeKindLabels[inv.payment.paymentType as keyof typeof chargeKindLabels])
                  : inv.payment.paymentType}
                </dd>
                <dt>
                  <Trans>Payment date</Trans>
                </dt>
                <dd>{inv.payment.paymentDate ? formatDate(inv.payment.paymentDate, locale) : '-'}</dd>
              </>
            )}
          </dl>
        </div>
      </header>

      <section className="invoice-bill-to" aria-labelledby="bill-to-title">
        <h2 id="bill-to-title">
          <Trans>Bill To</Trans>
        </h2>
        <address>
          {inv.consumerName}
          {inv.consumerAddress && (
            <>
              <br />
              {inv.consumerAddress}
            </>
          )}
          {inv.consumerPhoneNumber && (
            <>
              <br />
              {inv.consumerPhoneNumber}
            </>
          )}
          <br />
          {inv.consumerEmailAddress}
        </address>
      </section>

      <p className="invoice-name">{inv.name}</p>
      <TableFrame labelledBy="invoice-lines-caption">
        <table className="table invoice-lines">
          <caption id="invoice-lines-caption" className="sr-only">{t`Invoice lines`}</caption>
          <thead>
            <tr>
              <th scope="col">
                <Trans>No.</Trans>
              </th>
              <th scope="col">
                <Trans>Description</Trans>
              </th>
              <th scope="col" className="cell-number hide-phone">
                <Trans>Qty</Trans>
              </th>
              <th scope="col" className="cell-number hide-phone">
                <Trans>Unit price</Trans>
              </th>
              <th scope="col" className="cell-number hide-phone">
                <Trans>VAT</Trans>
              </th>
              <th scope="col" className="cell-number">
                <Trans>Total incl. VAT</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {articles.map((a) => (
              <tr key={a.id}>
                <td>{a.articleNumber}</td>
                <th scope="row" className="cell-wrap">
                  {a.articleDescription}
                </th>
                <td className="cell-number hide-phone">{a.quantity}</td>
                <td className="cell-number cell-nowrap hide-phone">{dkk(a.pricePerUnit)}</td>
                <td className="cell-number hide-phone">{a.vatRate} %</td>
                <td className="cell-number cell-nowrap">{dkk(a.totalPriceIncludingVat)}</td>
              </tr>
            ))}
          </tbody>
          {/* On a phone the lines show number, description and total; the sums follow below the table. */}
          <tfoot className="hide-phone">
            <tr>
              <th scope="row" colSpan={5}>
                <Trans>Subtotal</Trans>
              </th>
              <td className="cell-number cell-nowrap">{dkk(inv.subtotal ?? 0)}</td>
            </tr>
            <tr>
              <th scope="row" colSpan={5}>
                <Trans>VAT ({vatRate} %)</Trans>
              </th>
              <td className="cell-number cell-nowrap">{dkk(inv.totalVatAmount ?? 0)}</td>
            </tr>
            <tr className="invoice-total">
              <th scope="row" colSpan={5}>
                {credit ? t`Total credited` : t`Total amount`}
              </th>
              <td className="cell-number cell-nowrap">{dkk(inv.totalAmount ?? 0)}</td>
            </tr>
          </tfoot>
        </table>
      </TableFrame>
      <dl className="detail-list show-phone invoice-totals-phone">
        <dt>
          <Trans>Subtotal</Trans>
        </dt>
        <dd>{dkk(inv.subtotal ?? 0)}</dd>
        <dt>
          <Trans>VAT ({vatRate} %)</Trans>
        </dt>
        <dd>{dkk(inv.totalVatAmount ?? 0)}</dd>
        <dt>{credit ? t`Total credited` : t`Total amount`}</dt>
        <dd>
          <strong>{dkk(inv.totalAmount ?? 0)}</strong>
        </dd>
      </dl>

      <section className="invoice-terms" aria-labelledby="terms-title">
        <h2 id="terms-title">
          <Trans>Payment Terms</Trans>
        </h2>
        {writeOff ?
          <p>
            <Trans>The amount is written off: it is no longer owed, and nothing is paid back.</Trans>
          </p>
        : credit ?
          <p>
            <Trans>The amount is paid back to the account the payment was withdrawn from.</Trans>
          </p>
        : settlement?.kind === 'PAID_OUTSIDE' ?
          <p>
            <Trans>Paid outside Vipps MobilePay. No further payment is required.</Trans>
          </p>
        : inv.status === 'FAILED' ?
          <p>
            <Trans>Vipps MobilePay could not collect the amount on the due date, {dueDate}. It is still owed; the association will contact you.</Trans>
          </p>
        : <p>
            <Trans>The amount is withdrawn automatically through Vipps MobilePay on the due date, {dueDate}. No manual payment required.</Trans>
          </p>
        }
      </section>
    </article>
  )
}

import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import { buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { usePageTitle } from '../../lib/use-page-title'
import { useSync } from '../../sync/use-sync'
import { LoanLine } from './ItemPage'
import { useItems, useLoans, type LoanView } from './use-lending'
import './lending.css'

/** "My loans" (decision 0064): what the user borrows and what they lend (their items, and the association's for its administration). */
export function MyLoansPage() {
  const { t } = useLingui()
  usePageTitle(t`My loans`)
  const handle = useSync()
  const loans = useLoans(handle)
  const items = useItems(handle)
  const titles = new Map((items ?? []).map((i) => [i.id, i.title ?? '']))
  const list = (rows: LoanView[]) =>
    rows.length === 0 ?
      <p className="empty">
        <Trans>None yet</Trans>
      </p>
    : <ul className="lending-loans">
        {rows.map((l) => (
          <LoanLine key={l.id} loan={l} title={titles.get(l.itemId ?? '')} />
        ))}
      </ul>
  return (
    <div className="page lending-mine-page">
      <div className="page-header">
        <Link to="/lending" className={buttonClass('link')}>
          <Trans>← Back to lending</Trans>
        </Link>
      </div>
      <h1>
        <Trans>My loans</Trans>
      </h1>
      {!loans ?
        <Spinner label={t`Loading loans`} />
      : <>
          <section className="lending-section" aria-labelledby="mine-borrowed">
            <h2 id="mine-borrowed">
              <Trans>I borrow</Trans>
            </h2>
            {list(loans.filter((l) => l.mine === 'borrower'))}
          </section>
          <section className="lending-section" aria-labelledby="mine-lent">
            <h2 id="mine-lent">
              <Trans>I lend</Trans>
            </h2>
            {list(loans.filter((l) => l.mine === 'lender'))}
          </section>
        </>
      }
    </div>
  )
}

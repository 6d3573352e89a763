import type { ReactNode } from 'react'
import { Link } from '@tanstack/react-router'
import { Trans, useLingui } from '@lingui/react/macro'
import { buttonClass } from '../../components/ui/Button'
import { usePageTitle } from '../../lib/use-page-title'
import { BarChart, BubbleChart, LineChart } from './charts'

function AreaCard({ title, chart, children }: { title: ReactNode; chart: ReactNode; children: ReactNode }) {
  return (
    <article className="card area-card">
      <div className="area-chart">{chart}</div>
      <h3>{title}</h3>
      <ul className="check-list">{children}</ul>
    </article>
  )
}

/** The front page for guests (docs/PRODUCT.md §1): the four areas of the product with decorative charts. */
export function LandingPage() {
  const { t } = useLingui()
  usePageTitle(t`Collection and community for housing associations`)
  return (
    <div className="landing">
      <section className="hero">
        <div className="hero-text">
          <h1>
            <Trans>Collection and community for your housing association</Trans>
          </h1>
          <p className="lead">
            <Trans>
              Boligkasse collects the members' rent and shared costs automatically with Vipps MobilePay, and gives the board simple tools for communication and
              knowledge sharing.
            </Trans>
          </p>
          <div className="hero-actions">
            <Link to="/login" className={buttonClass('primary')}>
              <Trans>Sign in</Trans>
            </Link>
            <Link to="/register" className={buttonClass('secondary')}>
              <Trans>Create an account</Trans>
            </Link>
          </div>
        </div>
        <div className="hero-chart card">
          <LineChart />
          <BarChart />
        </div>
      </section>

      <section className="areas" aria-labelledby="areas-title">
        <h2 id="areas-title">
          <Trans>Everything the association needs in one place</Trans>
        </h2>
        <div className="area-grid">
          <AreaCard title={<Trans>Economy</Trans>} chart={<LineChart />}>
            <li>
              <Trans>Collect money from the members</Trans>
            </li>
            <li>
              <Trans>Members pay with Vipps MobilePay</Trans>
            </li>
            <li>
              <Trans>Running summaries of spending on heating, water and shared costs</Trans>
            </li>
            <li>
              <Trans>Add or remove payment lines for the next collection</Trans>
            </li>
            <li>
              <Trans>Collections are adjusted automatically, with nothing for the member to do</Trans>
            </li>
            <li>
              <Trans>Optional automatic reminders and a legal process for non-payers</Trans>
            </li>
            <li>
              <Trans>Export to spreadsheet</Trans>
            </li>
          </AreaCard>
          <AreaCard title={<Trans>Communication</Trans>} chart={<BarChart />}>
            <li>
              <Trans>Write to groups, the board or single members</Trans>
            </li>
            <li>
              <Trans>Send anonymously as a whistleblower</Trans>
            </li>
            <li>
              <Trans>Send notices and demands</Trans>
            </li>
            <li>
              <Trans>Schedule sendouts</Trans>
            </li>
            <li>
              <Trans>Reminders about the general assembly and about water and heating usage</Trans>
            </li>
          </AreaCard>
          <AreaCard title={<Trans>Sustainability</Trans>} chart={<BubbleChart />}>
            <li>
              <Trans>Lend things to your neighbours with a short contract</Trans>
            </li>
            <li>
              <Trans>See who borrowed what, and when</Trans>
            </li>
            <li>
              <Trans>Automatic reminders to return borrowed things</Trans>
            </li>
          </AreaCard>
          <AreaCard title={<Trans>Knowledge</Trans>} chart={<BubbleChart />}>
            <li>
              <Trans>A knowledge bank for the association</Trans>
            </li>
            <li>
              <Trans>A forum for the members</Trans>
            </li>
            <li>
              <Trans>Linked specialists</Trans>
            </li>
          </AreaCard>
        </div>
      </section>
    </div>
  )
}

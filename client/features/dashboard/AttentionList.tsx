import type { ReactNode } from 'react'
import { plural } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import type { AttentionItem } from '../../../shared/domain/dashboard'
import { formatDate, formatMoney, type Locale } from '../../lib/format'
import { companyStatusLabels } from '../companies/labels'

/** At most this many items of one kind; the rest are behind a link to the list they belong to. */
export const ATTENTION_PER_KIND = 5

type Kind = AttentionItem['kind']
const order: Kind[] = ['company-not-active', 'provider-without-webhooks', 'failed-charges', 'termination-soon', 'awaiting-acceptance']

/**
 * What needs attention (decision 0060): each item names the thing and links to where it is fixed —
 * the company page, the payment provider, the agreement's charges, the agreement. An empty list
 * says so.
 */
export function AttentionList({ items, locale, adminStaff }: { items: readonly AttentionItem[]; locale: Locale; adminStaff: boolean }) {
  const { t } = useLingui()
  if (items.length === 0)
    return (
      <p className="empty attention-empty">
        <Trans>Nothing needs attention right now.</Trans>
      </p>
    )
  const rows: ReactNode[] = []
  for (const kind of order) {
    const ofKind = items.filter((i) => i.kind === kind)
    for (const item of ofKind.slice(0, ATTENTION_PER_KIND)) rows.push(<Item key={`${item.kind}:${keyOf(item)}`} item={item} locale={locale} />)
    const more = ofKind.length - ATTENTION_PER_KIND
    const count = ofKind.length
    if (more > 0)
      rows.push(
        <li key={`${kind}:more`} className="attention-item attention-more">
          {kind === 'failed-charges' ?
            adminStaff ?
              <Link to="/debtors">{t`Show all ${count} in Debtors`}</Link>
            : <span className="muted">{t`And ${more} more`}</span>
          : <Link to="/agreements">{t`Show all ${count} in Agreements`}</Link>}
        </li>,
      )
  }
  return <ul className="attention-list">{rows}</ul>
}

const keyOf = (item: AttentionItem) =>
  item.kind === 'company-not-active' ? item.companyId
  : item.kind === 'provider-without-webhooks' ? item.providerId
  : item.agreementId

function Item({ item, locale }: { item: AttentionItem; locale: Locale }) {
  const { t, i18n } = useLingui()
  switch (item.kind) {
    case 'company-not-active': {
      const status = i18n._(companyStatusLabels[item.status])
      return (
        <li className="attention-item attention-error">
          <Link to="/company/$id" params={{ id: item.companyId }}>
            <Trans>The company is not active</Trans>
          </Link>
          <span className="attention-detail">{t`Status: ${status}. Charges are only collected while the company is active.`}</span>
        </li>
      )
    }
    case 'provider-without-webhooks': {
      const name = item.providerName || t`Payment provider`
      return (
        <li className="attention-item attention-warning">
          <Link to="/company/$id/payment-provider/$providerId" params={{ id: item.companyId, providerId: item.providerId }}>
            {t`${name} has no webhooks`}
          </Link>
          <span className="attention-detail">
            <Trans>Without webhooks, payments are only learnt by asking Vipps MobilePay now and then, so they show later.</Trans>
          </span>
        </li>
      )
    }
    case 'failed-charges': {
      const { externalId, memberName } = item
      const since = formatDate(item.since, locale)
      const amount = formatMoney(item.amount, locale)
      const charges = item.charges
      return (
        <li className="attention-item attention-error">
          <Link to="/charges/$agreementId" params={{ agreementId: item.agreementId }}>
            {t`Failed charges: agreement ${externalId}, ${memberName}`}
          </Link>
          <span className="attention-detail">
            {t`${plural(charges, { one: '# failed charge', other: '# failed charges' })} since ${since}; ${amount} unpaid.`}
          </span>
        </li>
      )
    }
    case 'termination-soon': {
      const { externalId, memberName } = item
      const date = formatDate(item.terminationDate, locale)
      return (
        <li className="attention-item attention-info">
          <Link to="/agreements/$id" params={{ id: item.agreementId }}>
            {t`Agreement ${externalId}, ${memberName}, ends soon`}
          </Link>
          <span className="attention-detail">{t`Termination date: ${date}.`}</span>
        </li>
      )
    }
    case 'awaiting-acceptance': {
      const { externalId, memberName } = item
      return (
        <li className="attention-item attention-info">
          <Link to="/agreements/$id" params={{ id: item.agreementId }}>
            {t`Agreement ${externalId}, ${memberName}, awaits acceptance`}
          </Link>
          <span className="attention-detail">
            {item.status === 'PENDING' ?
              <Trans>The member has accepted; the approval in Vipps MobilePay is still pending.</Trans>
            : <Trans>The member has not accepted the agreement yet.</Trans>}
          </span>
        </li>
      )
    }
  }
}

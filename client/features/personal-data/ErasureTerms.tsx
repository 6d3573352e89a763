import { Trans } from '@lingui/react/macro'

/** What an erasure removes and what it keeps (docs/PRIVACY.md): the same words for the member who asks and the staff who approve. */
export function ErasureTerms() {
  return (
    <>
      <p>
        <strong>
          <Trans>What goes:</Trans>
        </strong>{' '}
        <Trans>
          name, e-mail address, mobile number and the Vipps MobilePay link on the account, which can no longer sign in; sessions, notifications, market listings
          and things lent that were never borrowed; their name on messages, forum posts, loans and proposals.
        </Trans>
      </p>
      <p>
        <strong>
          <Trans>What is kept:</Trans>
        </strong>{' '}
        <Trans>
          invoices and credit notes keep the name and address on the voucher for 5 years, as the Bookkeeping Act requires; their e-mail address and phone number
          are removed.
        </Trans>
      </p>
    </>
  )
}

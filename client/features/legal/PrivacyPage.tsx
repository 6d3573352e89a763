import { Trans, useLingui } from '@lingui/react/macro'
import { LegalPage } from './LegalPage'

export function PrivacyPage() {
  const { t } = useLingui()
  return (
    <LegalPage title={t`Privacy policy`}>
      <p>
        <Trans>
          This policy explains how Boligkasse ApS processes personal data when you use Boligkasse. We process personal data in accordance with the General Data
          Protection Regulation (GDPR) and the Danish Data Protection Act.
        </Trans>
      </p>
      <section>
        <h2>
          <Trans>1. Data we collect</Trans>
        </h2>
        <p>
          <Trans>
            We collect your name, e-mail address, mobile number and preferred language, the addresses and associations you are connected to, your payment
            agreements, charges and invoices, and technical information such as sign-in times and error logs.
          </Trans>
        </p>
      </section>
      <section>
        <h2>
          <Trans>2. How we use the data</Trans>
        </h2>
        <p>
          <Trans>
            We use the data to provide the service: to create and collect payments, to show invoices and summaries, to send messages and notifications from your
            association, and to keep the service secure and working.
          </Trans>
        </p>
      </section>
      <section>
        <h2>
          <Trans>3. Sharing of data</Trans>
        </h2>
        <p>
          <Trans>
            Data is shared with your association's board and administrators as far as they need it, and with Vipps MobilePay to carry out payments. We use data
            processors for hosting and e-mail. We never sell personal data.
          </Trans>
        </p>
      </section>
      <section>
        <h2>
          <Trans>4. Security</Trans>
        </h2>
        <p>
          <Trans>Data is sent encrypted, passwords are stored only as secure hashes, and access is limited to the people who need it for their role.</Trans>
        </p>
      </section>
      <section>
        <h2>
          <Trans>5. Your rights</Trans>
        </h2>
        <p>
          <Trans>
            You have the right to see the data we hold about you, to have it corrected or deleted, to object to its processing and to receive it in a portable
            format. You can complain to the Danish Data Protection Agency (Datatilsynet).
          </Trans>
        </p>
      </section>
      <section>
        <h2>
          <Trans>6. Cookies</Trans>
        </h2>
        <p>
          <Trans>
            Boligkasse uses no tracking or advertising cookies. The app stores your sign-in and language choice in your browser's local storage so that you stay
            signed in, and keeps a copy of your data on the device so that it also works offline.
          </Trans>
        </p>
      </section>
    </LegalPage>
  )
}

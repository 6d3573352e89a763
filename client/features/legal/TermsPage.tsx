import { Trans, useLingui } from '@lingui/react/macro'
import { LegalPage } from './LegalPage'

export function TermsPage() {
  const { t } = useLingui()
  return (
    <LegalPage title={t`Terms of use`}>
      <section>
        <h2>
          <Trans>1. General terms</Trans>
        </h2>
        <p>
          <Trans>
            These terms apply to all use of Boligkasse, a service provided by Boligkasse ApS. Boligkasse helps housing associations collect recurring payments
            from their members and gives the association tools for communication and knowledge sharing. By using the service you accept these terms.
          </Trans>
        </p>
      </section>
      <section>
        <h2>
          <Trans>2. Use of the service</Trans>
        </h2>
        <p>
          <Trans>
            You must give correct information about yourself and keep your sign-in details to yourself. The association decides which payment agreements it
            offers its members, and each member decides whether to accept them. Payments are withdrawn through Vipps MobilePay according to the agreement you
            have accepted.
          </Trans>
        </p>
        <p>
          <Trans>You may not use the service for anything unlawful, try to gain access to other people's data, or disturb the operation of the service.</Trans>
        </p>
      </section>
      <section>
        <h2>
          <Trans>3. Liability</Trans>
        </h2>
        <p>
          <Trans>
            We work to keep Boligkasse available and correct, but we cannot guarantee that the service is always free of errors or interruptions. Boligkasse ApS
            is not liable for indirect losses. The association is responsible for the amounts it charges its members.
          </Trans>
        </p>
      </section>
      <section>
        <h2>
          <Trans>4. Intellectual property</Trans>
        </h2>
        <p>
          <Trans>
            The software, design and texts of Boligkasse belong to Boligkasse ApS. Content that the association or its members add remains theirs; they give us
            the right to store and show it in order to provide the service.
          </Trans>
        </p>
      </section>
      <section>
        <h2>
          <Trans>5. Changes to the terms</Trans>
        </h2>
        <p>
          <Trans>We may change these terms. Material changes are announced in the service before they take effect.</Trans>
        </p>
      </section>
      <section>
        <h2>
          <Trans>6. Contact</Trans>
        </h2>
        <p>
          <Trans>If you have questions about the terms, you are welcome to contact us through the contact form.</Trans>
        </p>
      </section>
    </LegalPage>
  )
}

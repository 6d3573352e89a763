import { createFileRoute } from '@tanstack/react-router'
import { recordId, searchOf } from '../../../lib/search-params'
import { CreateAgreementPage } from '../../../features/agreements/CreateAgreementPage'

/** `?household=` prefills the household's address, payer and parts (docs/decisions/0090). */
const Search = searchOf({ household: recordId })

export const Route = createFileRoute('/_auth/agreements/create')({
  validateSearch: Search,
  component: function CreateAgreement() {
    return <CreateAgreementPage household={Route.useSearch().household} />
  },
})

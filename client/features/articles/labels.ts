/** Words and pure rules of the knowledge bank's screens (decision 0065). */
import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { AccountInfo } from '../../../shared/contract/account'
import type { ArticleLanguage } from '../../../shared/contract/articles'

export const languageLabels: Record<ArticleLanguage, MessageDescriptor> = {
  da: msg`Danish`,
  en: msg`English`,
}

type User = Pick<AccountInfo, 'userRole' | 'companies'>

/** Who may change an article: the super admin any; an association's staff (every role) its own. */
export const mayWrite = (user: User | null | undefined, companyId: string | null | undefined): boolean =>
  !!user && (user.userRole === 'SUPERADMIN' || (!!companyId && user.companies.some((c) => c.id === companyId)))

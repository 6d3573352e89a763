import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { AuthMethodType } from '../../../shared/contract/account'
import type { CompanyRole } from '../../../shared/domain/roles'

export const authMethodTypeLabels: Record<AuthMethodType, MessageDescriptor> = {
  EMAIL_PASSWORD: msg`Email and password`,
  PHONE_PASSWORD: msg`Phone and password`,
  LOGIN_TOKEN: msg`Login token`,
  MOBILEPAY: msg`Vipps MobilePay`,
}

export const companyRoleLabels: Record<CompanyRole, MessageDescriptor> = {
  CHAIRMAN: msg`Chairman`,
  ADMINISTRATOR: msg`Administrator`,
  ACCOUNTANT: msg`Accountant`,
  BOARDMEMBER: msg`Board member`,
}

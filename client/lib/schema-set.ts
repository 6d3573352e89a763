/** The schemas `lazySchema` serves (client/lib/schemas.ts): one chunk, with zod. */
export { AccountInfo, AddAuthMethodResponse, Profile, VippsLinkResponse } from '../../shared/contract/account'
export { LoginResponse } from '../../shared/contract/auth'
export { ErrorBody, MessageResponse } from '../../shared/contract/common'
export { Health } from '../../shared/contract/health'

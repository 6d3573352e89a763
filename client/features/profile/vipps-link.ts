/**
 * How linking Vipps MobilePay from the profile ended: Vipps returns the browser to /user?vipps=….
 * Its own module so the /user route can read the parameter without loading the profile screen.
 */
export const vippsLinkResults = ['linked', 'vipps_linked_elsewhere', 'vipps_failed'] as const
export type VippsLinkResult = (typeof vippsLinkResults)[number]

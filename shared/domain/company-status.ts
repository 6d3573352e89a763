/**
 * Company life cycle (docs/PRODUCT.md §4 leaves the rules open; docs/decisions/0014-company-life-cycle.md records these):
 *
 * | action     | from                      | to          |
 * |------------|---------------------------|-------------|
 * | activate   | NEW, SUSPENDED            | ACTIVE      |
 * | suspend    | ACTIVE                    | SUSPENDED   |
 * | deactivate | ACTIVE, SUSPENDED         | DEACTIVATED |
 * | delete     | NEW, DEACTIVATED          | DELETED     |
 *
 * DELETED is a soft delete: rows stay for bookkeeping (kept 5 years), the company disappears for
 * its staff. Only ACTIVE and NEW companies accept changes to their data; a SUSPENDED or
 * DEACTIVATED company is read-only and collects no charges.
 */
export const companyStatuses = ['NEW', 'ACTIVE', 'SUSPENDED', 'DEACTIVATED', 'DELETED'] as const
export type CompanyStatus = (typeof companyStatuses)[number]

export const lifecycleActions = ['activate', 'suspend', 'deactivate', 'delete'] as const
export type LifecycleAction = (typeof lifecycleActions)[number]

export const lifecycleTransitions: Record<LifecycleAction, { from: readonly CompanyStatus[]; to: CompanyStatus }> = {
  activate: { from: ['NEW', 'SUSPENDED'], to: 'ACTIVE' },
  suspend: { from: ['ACTIVE'], to: 'SUSPENDED' },
  deactivate: { from: ['ACTIVE', 'SUSPENDED'], to: 'DEACTIVATED' },
  delete: { from: ['NEW', 'DEACTIVATED'], to: 'DELETED' },
}

/** The status after `action`, or undefined when the action is not allowed from `status`. */
export function nextStatus(status: CompanyStatus, action: LifecycleAction): CompanyStatus | undefined {
  const t = lifecycleTransitions[action]
  return t.from.includes(status) ? t.to : undefined
}

/** Whether the company's own data (fields, members, addresses, providers) may change. */
export const isWritable = (status: CompanyStatus): boolean => status === 'NEW' || status === 'ACTIVE'

/** Whether charges are collected for the company's agreements. */
export const collectsCharges = (status: CompanyStatus): boolean => status === 'ACTIVE'

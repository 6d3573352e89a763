import { effectiveRole, isAgreementAdmin, isCompanyAdminStaff, isCompanyStaff, type CompanyRole } from '../../shared/domain/roles'
import { forbidden, notFound } from '../errors'
import type { Actor } from './actor'

/**
 * The one place that answers "may this actor do X" (docs/PRODUCT.md §6). Every route names its policy;
 * company data is always scoped to the caller's companies, and a company the caller cannot see
 * answers 404, never 403, so its existence is not revealed.
 */
export type Action = 'logs:write' | 'logs:read' | 'users:search' | 'companies:create' | 'providers:manage' | 'companies:lifecycle' | 'addresses:search'

export const isSuperAdmin = (actor: Actor): boolean => actor.systemRole === 'SUPERADMIN'

/** The actor's role in a company, or undefined when they have none there. */
export const roleIn = (actor: Actor, companyId: string): CompanyRole | undefined => actor.companies.find((c) => c.id === companyId)?.role

/** The effective role of docs/PRODUCT.md §6 for the current company. */
export const currentRole = (actor: Actor) => effectiveRole(actor.systemRole, actor.companies, actor.currentCompanyId)

const rules: Record<Action, (actor: Actor) => boolean> = {
  'logs:write': () => true,
  'logs:read': isSuperAdmin,
  // Staff look users up by e-mail to add them to their company (docs/PRODUCT.md §5 "Add user to company").
  'users:search': (a) => isSuperAdmin(a) || a.companies.some((c) => isCompanyStaff(c.role)),
  'companies:create': isSuperAdmin,
  // docs/PRODUCT.md §6: the Payment Providers tab, and adding or toggling providers, are the super admin's.
  'providers:manage': isSuperAdmin,
  // Activating, suspending, deactivating and deleting a company is the platform's decision.
  'companies:lifecycle': isSuperAdmin,
  // The address lookup serves the Addresses tab: staff of some company and the super admin.
  'addresses:search': (a) => isSuperAdmin(a) || a.companies.some((c) => isCompanyStaff(c.role)),
}

export function can(actor: Actor, action: Action): boolean {
  return rules[action](actor)
}

export function assertCan(actor: Actor, action: Action): void {
  if (!can(actor, action)) throw forbidden()
}

/** Company ids whose data the actor may read; `all` for the super admin. */
export const visibleCompanyIds = (actor: Actor): 'all' | string[] => (isSuperAdmin(actor) ? 'all' : actor.companies.map((c) => c.id))

/** Throws 404 unless the actor may see the company at all. */
export function assertCompanyVisible(actor: Actor, companyId: string): void {
  if (isSuperAdmin(actor)) return
  if (!roleIn(actor, companyId)) throw notFound()
}

/** Throws unless the actor is company admin staff (administrator, accountant, chairman) there. */
export function assertCompanyAdminStaff(actor: Actor, companyId: string): void {
  assertCompanyVisible(actor, companyId)
  if (isSuperAdmin(actor)) return
  const role = roleIn(actor, companyId)
  if (!role || !isCompanyAdminStaff(role)) throw forbidden()
}

/**
 * Agreements (docs/PRODUCT.md §6, docs/decisions/0024-agreements.md): the super admin and the company's staff read all of
 * the company's agreements; a member reads their own. Anyone else gets 404.
 */
export const canReadAgreement = (actor: Actor, agreement: { companyId: string; memberUserId: string }): boolean =>
  isSuperAdmin(actor) || roleIn(actor, agreement.companyId) !== undefined || agreement.memberUserId === actor.userId

/** Throws unless the actor may create, edit and terminate the company's agreements (company admin staff or the super admin): 404 outside it, 403 for a board member or a resident. */
export function assertAgreementAdmin(actor: Actor, companyId: string, options: { ownAgreement?: boolean } = {}): void {
  if (isSuperAdmin(actor)) return
  const role = roleIn(actor, companyId)
  if (!role && !options.ownAgreement) throw notFound()
  if (!role || !isAgreementAdmin(role)) throw forbidden()
}

/**
 * Messages (docs/decisions/0025-messages.md). Staff of a company (every company role) and the super
 * admin write to anyone in it; a resident (a member through an agreement) writes only to the
 * board, by name or anonymously. Outside the company: 404.
 */
export type MessageAuthor = 'staff' | 'resident'

export function assertMayWriteMessage(actor: Actor, companyId: string, isResident: boolean): MessageAuthor {
  if (isSuperAdmin(actor) || roleIn(actor, companyId)) return 'staff'
  if (isResident) return 'resident'
  throw notFound()
}

/**
 * Who reads a message: its (named) sender, always; once sent, its recipients, the company's staff
 * and the super admin. A draft is its author's alone.
 */
export const canReadMessage = (actor: Actor, message: { companyId: string; senderUserId: string | null; status: string }, isRecipient: boolean): boolean =>
  (message.senderUserId !== null && message.senderUserId === actor.userId) ||
  (message.status !== 'DRAFT' && (isRecipient || isSuperAdmin(actor) || roleIn(actor, message.companyId) !== undefined))

/** The full recipient list (with e-mails and tracking) is for the sender and staff; a recipient sees their own row. */
export const seesAllRecipients = (actor: Actor, message: { companyId: string; senderUserId: string | null }): boolean =>
  message.senderUserId === actor.userId || isSuperAdmin(actor) || roleIn(actor, message.companyId) !== undefined

/** Only the author changes, schedules, sends or deletes a draft (403 for others who can read it). */
export function assertMessageAuthor(actor: Actor, message: { senderUserId: string | null }): void {
  if (message.senderUserId !== actor.userId) throw forbidden()
}

/**
 * General assemblies (docs/decisions/0061-general-assembly-sendouts.md): company admin
 * staff (chairman, administrator, accountant) and the super admin call, edit, cancel and close one;
 * a board member reads everything staff reads (every proposal, the sendouts) but calls no meeting.
 */
export const mayManageAssemblies = (actor: Actor, companyId: string): boolean => {
  if (isSuperAdmin(actor)) return true
  const role = roleIn(actor, companyId)
  return role !== undefined && isCompanyAdminStaff(role)
}

/** The company's staff (any role) and the super admin see every assembly (before its notice too) and every proposal. */
export const seesAllOfAssemblies = (actor: Actor, companyId: string): boolean => isSuperAdmin(actor) || roleIn(actor, companyId) !== undefined

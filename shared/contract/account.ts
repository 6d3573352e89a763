import { z } from 'zod'
import { companyRoles, systemRoles } from '../domain/roles'
import { Language } from './common'
import { Notification } from './notifications'
import { messages } from '../i18n-messages'
import { MIN_PASSWORD_LENGTH } from './auth'
import { personName } from './text'

export const CompanyRole = z.enum(companyRoles)
export const SystemRole = z.enum(systemRoles)

export const CompanyMembership = z.object({ id: z.uuid(), name: z.string(), role: CompanyRole }).meta({ id: 'CompanyMembership' })
export const CompanyRef = z.object({ id: z.uuid(), name: z.string() })

export const authMethodTypes = ['EMAIL_PASSWORD', 'PHONE_PASSWORD', 'LOGIN_TOKEN', 'MOBILEPAY'] as const
export const AuthMethodType = z.enum(authMethodTypes)
export type AuthMethodType = z.infer<typeof AuthMethodType>

/** An authentication method as the owner sees it. Secrets are never returned. */
export const AuthMethod = z
  .object({
    id: z.uuid(),
    type: AuthMethodType,
    identifier: z.string(),
    /** False while an added e-mail sign-in waits for its confirmation link; it cannot sign in until then. */
    verified: z.boolean(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'AuthMethod' })
export type AuthMethod = z.infer<typeof AuthMethod>

export const AccountInfo = z
  .object({
    id: z.uuid(),
    fullName: z.string(),
    emailAddress: z.string(),
    mobileNumber: z.string().nullable(),
    userRole: SystemRole,
    language: Language,
    companies: z.array(CompanyMembership),
    currentCompany: CompanyRef.nullable(),
    /** The newest notifications (at most 20). */
    notifications: z.array(Notification),
    version: z.number().int(),
  })
  .meta({ id: 'AccountInfo' })
export type AccountInfo = z.infer<typeof AccountInfo>

/** The profile screen's data: the account without notifications, with its sign-in methods. */
export const Profile = AccountInfo.omit({ notifications: true })
  .extend({
    authMethods: z.array(AuthMethod),
    /** A new e-mail address waiting for the link sent to it; the account keeps `emailAddress` until then. */
    pendingEmailAddress: z.string().nullable(),
    /** Whether Vipps MobilePay proved the mobile number is this user's (only then can it open the account at a first Vipps sign-in). */
    mobileVerified: z.boolean(),
  })
  .meta({ id: 'Profile' })
export type Profile = z.infer<typeof Profile>

export const profileFields = ['fullName', 'emailAddress', 'mobileNumber', 'language'] as const
export const ProfileField = z.enum(profileFields)
export type ProfileField = z.infer<typeof ProfileField>

/** A person's name: one line, at most 200 characters (shared/contract/text.ts). */
export const fullName = personName()
export const emailAddress = z.string().trim().toLowerCase().min(1, messages.required.id).max(254).pipe(z.email(messages.invalidEmail.id))
/** Danish or international mobile number: digits, spaces and an optional leading +, 8–15 digits. */
export const mobileNumber = z
  .string()
  .trim()
  .max(20)
  .regex(/^\+?[\d ]{8,19}$/, messages.invalidMobile.id)

/** Validation of each inline-editable profile field (PATCH /account/profile/{field}). */
export const profileFieldSchemas = {
  fullName,
  emailAddress,
  mobileNumber: z.union([mobileNumber, z.literal('').transform(() => null), z.null()]),
  language: Language,
} as const

/** Confirms the owner for a security change (README "Security"): needed to change the e-mail address. */
const currentPassword = z.string().max(1024).optional()

/** The owner's confirmation for removing a sign-in method or linking Vipps MobilePay. */
export const ConfirmOwnerRequest = z.object({ currentPassword }).meta({ id: 'ConfirmOwnerRequest' })
export type ConfirmOwnerRequest = z.infer<typeof ConfirmOwnerRequest>

export const PatchProfileFieldRequest = z.object({ value: z.unknown(), currentPassword }).meta({ id: 'PatchProfileFieldRequest' })

export const UpdateAccountRequest = z
  .object({
    fullName: fullName.optional(),
    emailAddress: emailAddress.optional(),
    mobileNumber: profileFieldSchemas.mobileNumber.optional(),
    language: Language.optional(),
    currentPassword,
  })
  .meta({ id: 'UpdateAccountRequest' })
export type UpdateAccountRequest = z.infer<typeof UpdateAccountRequest>

export const SwitchCompanyRequest = z.object({ companyId: z.uuid() }).meta({ id: 'SwitchCompanyRequest' })

/**
 * Add an authentication method (docs/PRODUCT.md §5 "Add authentication method"). Password types need a
 * password of at least 6 characters and a matching confirmation; LOGIN_TOKEN gets a generated token.
 */
export const AddAuthMethodRequest = z
  .object({
    type: z.enum(['EMAIL_PASSWORD', 'PHONE_PASSWORD', 'LOGIN_TOKEN']),
    identifier: z.string().trim().max(254).optional().default(''),
    secret: z.string().max(1024).optional(),
    confirmSecret: z.string().max(1024).optional(),
    /** The current password (not needed right after a Vipps MobilePay sign-in). */
    currentPassword,
  })
  .superRefine((v, ctx) => {
    if (v.type !== 'LOGIN_TOKEN' && !v.identifier) ctx.addIssue({ code: 'custom', path: ['identifier'], message: messages.required.id })
    if (v.type === 'EMAIL_PASSWORD' && v.identifier && !z.email().safeParse(v.identifier).success)
      ctx.addIssue({ code: 'custom', path: ['identifier'], message: messages.invalidEmail.id })
    if (v.type === 'LOGIN_TOKEN') return
    if (!v.secret) ctx.addIssue({ code: 'custom', path: ['secret'], message: messages.passwordRequired.id })
    else if (v.secret.length < MIN_PASSWORD_LENGTH) ctx.addIssue({ code: 'custom', path: ['secret'], message: messages.passwordTooShort.id })
    if (v.confirmSecret === undefined || v.confirmSecret === '') ctx.addIssue({ code: 'custom', path: ['confirmSecret'], message: messages.confirmPassword.id })
    else if (v.secret && v.confirmSecret !== v.secret) ctx.addIssue({ code: 'custom', path: ['confirmSecret'], message: messages.passwordsDoNotMatch.id })
  })
  .meta({ id: 'AddAuthMethodRequest' })
export type AddAuthMethodRequest = z.input<typeof AddAuthMethodRequest>

export const AddAuthMethodResponse = z.object({ data: AuthMethod.extend({ token: z.string().optional() }) }).meta({ id: 'AddAuthMethodResponse' })
export type AddAuthMethodResponse = z.infer<typeof AddAuthMethodResponse>

export const UserSearchQuery = z.object({ email: z.string().trim().min(3, messages.searchTooShort.id).max(254) })
export const UserSearchResult = z
  .object({
    id: z.uuid(),
    fullName: z.string(),
    emailAddress: z.string(),
    mobileNumber: z.string().nullable(),
    companies: z.array(CompanyRef),
  })
  .meta({ id: 'UserSearchResult' })
export type UserSearchResult = z.infer<typeof UserSearchResult>

/** Where the browser goes to link Vipps MobilePay to the signed-in account. */
export const VippsLinkResponse = z.object({ url: z.string() }).meta({ id: 'VippsLinkResponse' })

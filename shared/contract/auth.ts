import { z } from 'zod'
import { messages } from '../i18n-messages'

export const MIN_PASSWORD_LENGTH = 6

const email = z.string().trim().toLowerCase().min(1, messages.required.id).max(254).pipe(z.email(messages.invalidEmail.id))

export const LoginRequest = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('email'), email, password: z.string().min(1, messages.passwordRequired.id).max(1024) }),
    z.object({ type: z.literal('token'), token: z.string().trim().min(1, messages.required.id).max(512) }),
  ])
  .meta({ id: 'LoginRequest' })
export type LoginRequest = z.infer<typeof LoginRequest>

export const LoginResponse = z.object({ accessToken: z.string(), expiresAt: z.iso.datetime() }).meta({ id: 'LoginResponse' })
export type LoginResponse = z.infer<typeof LoginResponse>

export const ForgotPasswordRequest = z.object({ email }).meta({ id: 'ForgotPasswordRequest' })
export type ForgotPasswordRequest = z.infer<typeof ForgotPasswordRequest>

export const ResetPasswordRequest = z
  .object({
    token: z.string().trim().min(1, messages.invalidResetLink.id).max(512),
    email: z.string().trim().toLowerCase().max(254).optional(),
    newPassword: z.string().min(MIN_PASSWORD_LENGTH, messages.passwordTooShortReset.id).max(1024),
  })
  .meta({ id: 'ResetPasswordRequest' })
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequest>

/** The token of an e-mail confirmation link (/confirm-email?token=…). */
export const ConfirmEmailRequest = z
  .object({ token: z.string().trim().min(1, messages.invalidConfirmationLink.id).max(512) })
  .meta({ id: 'ConfirmEmailRequest' })

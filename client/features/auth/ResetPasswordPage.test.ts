import { describe, expect, it } from 'vitest'
import { resetPasswordProblem } from './ResetPasswordPage'

describe('resetPasswordProblem', () => {
  it('asks for a new reset link when the link has no token', () => {
    expect(resetPasswordProblem(undefined, 'secret1', 'secret1')?.id).toBe('Invalid reset link. Please request a new password reset.')
  })
  it('refuses a password shorter than 6 characters', () => {
    expect(resetPasswordProblem('t', '12345', '12345')?.id).toBe('Password must be at least 6 characters long.')
  })
  it('refuses a confirmation that differs', () => {
    expect(resetPasswordProblem('t', '123456', '123457')?.id).toBe('Passwords do not match.')
  })
  it('accepts a matching password of 6 characters', () => {
    expect(resetPasswordProblem('t', '123456', '123456')).toBeNull()
  })
})

import type { ButtonHTMLAttributes, Ref } from 'react'

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost' | 'link'

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant
  size?: 'md' | 'sm'
  /** Shows a busy state and blocks further clicks. */
  busy?: boolean
  ref?: Ref<HTMLButtonElement>
}

/** A button; `type` defaults to "button" so only explicit submit buttons submit forms. */
export function Button({ variant = 'primary', size = 'md', busy = false, className, type = 'button', disabled, ...rest }: ButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      className={['btn', `btn-${variant}`, size === 'sm' ? 'btn-sm' : '', className ?? ''].filter(Boolean).join(' ')}
    />
  )
}

/** Class names for a link that looks like a button. */
export const buttonClass = (variant: ButtonVariant = 'primary', size: 'md' | 'sm' = 'md') =>
  ['btn', `btn-${variant}`, size === 'sm' ? 'btn-sm' : ''].filter(Boolean).join(' ')

import type { ReactNode } from 'react'

export type AlertVariant = 'success' | 'warning' | 'error' | 'info'

/**
 * A message box. Errors are announced at once (role alert); the others politely (role status).
 * Render the Alert only when it has something to say, so the announcement happens on appearance.
 */
export function Alert({ variant, children, className }: { variant: AlertVariant; children: ReactNode; className?: string }) {
  return (
    <div role={variant === 'error' ? 'alert' : 'status'} className={['alert', `alert-${variant}`, className ?? ''].filter(Boolean).join(' ')}>
      {children}
    </div>
  )
}

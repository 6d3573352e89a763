import type { Toast } from '../../lib/toast'

/**
 * Renders the current toasts. Two live regions (assertive for errors, polite for the rest) exist
 * from the start, so screen readers announce what is added to them.
 */
export function Toaster({ toasts, closeLabel, onDismiss }: { toasts: Toast[]; closeLabel: string; onDismiss: (id: number) => void }) {
  const region = (errors: boolean) => (
    <div role={errors ? 'alert' : 'status'} aria-live={errors ? 'assertive' : 'polite'} className="toast-region">
      {toasts
        .filter((t) => (t.variant === 'error') === errors)
        .map((t) => (
          <div key={t.id} className={`toast toast-${t.variant}`}>
            <span>{t.text}</span>
            <button type="button" className="toast-close" aria-label={closeLabel} onClick={() => onDismiss(t.id)}>
              <span aria-hidden="true">×</span>
            </button>
          </div>
        ))}
    </div>
  )
  return (
    <div className="toasts">
      {region(true)}
      {region(false)}
    </div>
  )
}

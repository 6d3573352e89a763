import { useEffect, useId, useRef, type ReactNode } from 'react'

export interface ModalProps {
  open: boolean
  title: ReactNode
  /** Called on Escape and by the close button; the owner decides whether to close. */
  onClose: () => void
  /** Accessible name of the × button. */
  closeLabel: string
  children: ReactNode
  footer?: ReactNode
}

/**
 * An accessible dialog on the native `<dialog>` element: `showModal()` makes the rest of the page
 * inert (focus stays inside) and Escape fires `cancel`. Focus returns to the opener on close.
 */
export function Modal({ open, title, onClose, closeLabel, children, footer }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const onCloseRef = useRef(onClose)
  useEffect(() => {
    onCloseRef.current = onClose
  })

  useEffect(() => {
    const dialog = ref.current
    if (!dialog || !open) return
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    if (!dialog.open) dialog.showModal()
    return () => {
      dialog.close()
      opener?.focus()
    }
  }, [open])

  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    const onCancel = (event: Event) => {
      event.preventDefault()
      onCloseRef.current()
    }
    dialog.addEventListener('cancel', onCancel)
    return () => dialog.removeEventListener('cancel', onCancel)
  }, [])

  return (
    <dialog ref={ref} className="modal" aria-labelledby={titleId}>
      {open && (
        <div className="modal-content">
          <div className="modal-header">
            <h2 id={titleId} className="modal-title">
              {title}
            </h2>
            <button type="button" className="modal-close" aria-label={closeLabel} onClick={onClose}>
              <span aria-hidden="true">×</span>
            </button>
          </div>
          <div className="modal-body">{children}</div>
          {footer && <div className="modal-footer">{footer}</div>}
        </div>
      )}
    </dialog>
  )
}

import type { ReactNode } from 'react'

/**
 * A data table that scrolls sideways on narrow screens. Give it a caption (visible or not) so
 * screen readers can name it; header cells should use `<th scope="col">`.
 */
export function Table({ caption, captionHidden = false, children, className }: { caption: ReactNode; captionHidden?: boolean; children: ReactNode; className?: string }) {
  return (
    <div className="table-wrap">
      <table className={['table', className ?? ''].filter(Boolean).join(' ')}>
        <caption className={captionHidden ? 'sr-only' : 'table-caption'}>{caption}</caption>
        {children}
      </table>
    </div>
  )
}

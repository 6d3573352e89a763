import type { ReactNode } from 'react'
import { Trans } from '@lingui/react/macro'

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

/** The header of a column of row buttons: named for screen readers, empty on screen. */
export function ActionsHeader() {
  return (
    <th scope="col">
      <span className="sr-only">
        <Trans>Actions</Trans>
      </span>
    </th>
  )
}

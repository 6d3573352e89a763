import { useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { Trans } from '@lingui/react/macro'

/**
 * A data table that scrolls sideways on narrow screens. Give it a caption (visible or not) so
 * screen readers can name it; header cells should use `<th scope="col">`. While it is wider than
 * its place, its scrolling frame is a named, focusable region, so keyboard users can scroll it too
 * (WCAG 2.1.1; axe `scrollable-region-focusable`); a table that fits adds no tab stop.
 */
export function Table({
  caption,
  captionHidden = false,
  children,
  className,
}: {
  caption: ReactNode
  captionHidden?: boolean
  children: ReactNode
  className?: string
}) {
  const captionId = useId()
  return (
    <TableFrame labelledBy={captionId}>
      <table className={['table', className ?? ''].filter(Boolean).join(' ')}>
        <caption id={captionId} className={captionHidden ? 'sr-only' : 'table-caption'}>
          {caption}
        </caption>
        {children}
      </table>
    </TableFrame>
  )
}

/**
 * The scrolling frame of a table (for tables built without `Table`): while the table is wider
 * than its place, a focusable region named by `labelledBy` (the table's caption id).
 */
export function TableFrame({ labelledBy, children }: { labelledBy: string; children: ReactNode }) {
  const wrap = useRef<HTMLDivElement>(null)
  const scrolls = useScrolls(wrap)
  return (
    <div className="table-wrap" ref={wrap} {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-labelledby': labelledBy } : {})}>
      {children}
    </div>
  )
}

/** Whether an element's content is wider than the element, followed as either is resized. */
function useScrolls(ref: { current: HTMLElement | null }): boolean {
  const [scrolls, setScrolls] = useState(false)
  useEffect(() => {
    const el = ref.current
    if (!el || typeof ResizeObserver === 'undefined') return
    const check = () => setScrolls(el.scrollWidth > el.clientWidth)
    const observer = new ResizeObserver(check)
    observer.observe(el)
    if (el.firstElementChild) observer.observe(el.firstElementChild)
    check()
    return () => observer.disconnect()
  }, [ref])
  return scrolls
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

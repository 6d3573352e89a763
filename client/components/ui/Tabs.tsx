import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react'

export interface TabItem<K extends string> {
  key: K
  label: ReactNode
}

export interface TabsProps<K extends string> {
  label: string
  tabs: readonly TabItem<K>[]
  selected: K
  onSelect: (key: K) => void
  children: ReactNode
}

/**
 * WAI-ARIA tabs with automatic activation: arrow keys, Home and End move between tabs, and only
 * the selected tab is in the tab order. `children` is the panel of the selected tab.
 */
export function Tabs<K extends string>({ label, tabs, selected, onSelect, children }: TabsProps<K>) {
  const baseId = useId()
  const refs = useRef(new Map<K, HTMLButtonElement>())

  const onKeyDown = (event: KeyboardEvent) => {
    const index = tabs.findIndex((t) => t.key === selected)
    const last = tabs.length - 1
    const next =
      event.key === 'ArrowRight' ? (index + 1) % tabs.length
      : event.key === 'ArrowLeft' ? (index - 1 + tabs.length) % tabs.length
      : event.key === 'Home' ? 0
      : event.key === 'End' ? last
      : -1
    const tab = tabs[next]
    if (!tab) return
    event.preventDefault()
    onSelect(tab.key)
    refs.current.get(tab.key)?.focus()
  }

  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} className="tablist" onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.key}
            ref={(el) => {
              if (el) refs.current.set(tab.key, el)
              else refs.current.delete(tab.key)
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${tab.key}`}
            aria-selected={tab.key === selected}
            aria-controls={`${baseId}-panel`}
            tabIndex={tab.key === selected ? 0 : -1}
            className="tab"
            onClick={() => onSelect(tab.key)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-tab-${selected}`} className="tabpanel">
        {children}
      </div>
    </div>
  )
}

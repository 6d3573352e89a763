import type { KeyboardEvent } from 'react'

/**
 * Keyboard handling of a text field with a suggestion list (ARIA combobox): arrows move the
 * active suggestion (wrapping), Enter chooses it, Escape closes the list.
 */
export function comboboxKeyHandler<T>(opts: {
  open: boolean
  suggestions: readonly T[]
  active: number
  setActive: (update: (i: number) => number) => void
  choose: (item: T) => void
  close: () => void
}) {
  return (event: KeyboardEvent<HTMLInputElement>) => {
    const { open, suggestions, active } = opts
    if (!open || suggestions.length === 0) return
    if (event.key === 'ArrowDown') {
      event.preventDefault()
      opts.setActive((i) => (i + 1) % suggestions.length)
    } else if (event.key === 'ArrowUp') {
      event.preventDefault()
      opts.setActive((i) => (i <= 0 ? suggestions.length - 1 : i - 1))
    } else if (event.key === 'Enter' && active >= 0) {
      event.preventDefault()
      const s = suggestions[active]
      if (s !== undefined) opts.choose(s)
    } else if (event.key === 'Escape') {
      event.preventDefault()
      opts.close()
    }
  }
}

/**
 * The ARIA attributes of that text field (role, list, expanded state, the active suggestion's id
 * `${listId}-${index}`), the same in every combobox of the app.
 */
export function comboboxInputProps(opts: { listId: string; open: boolean; active: number }) {
  return {
    role: 'combobox',
    autoComplete: 'off',
    'aria-autocomplete': 'list',
    'aria-expanded': opts.open,
    'aria-controls': opts.listId,
    'aria-activedescendant': opts.open && opts.active >= 0 ? `${opts.listId}-${opts.active}` : undefined,
  } as const
}

/**
 * The listbox of a combobox's suggestions (see combobox-keys.ts): the active one is marked for
 * screen readers (`aria-activedescendant` points at `${id}-${index}`), and a click chooses one
 * without taking the focus from the field.
 */
export function SuggestionList<T>({
  id,
  label,
  items,
  active,
  keyOf,
  textOf,
  onChoose,
}: {
  id: string
  label: string
  items: readonly T[]
  active: number
  keyOf: (item: T) => string
  textOf: (item: T) => string
  onChoose: (item: T) => void
}) {
  return (
    <ul id={id} role="listbox" className="autocomplete-list" aria-label={label}>
      {items.map((item, i) => (
        <li
          key={keyOf(item)}
          id={`${id}-${i}`}
          role="option"
          aria-selected={i === active}
          className={i === active ? 'autocomplete-option is-active' : 'autocomplete-option'}
          onMouseDown={(e) => {
            e.preventDefault()
            onChoose(item)
          }}
        >
          {textOf(item)}
        </li>
      ))}
    </ul>
  )
}

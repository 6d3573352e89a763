/** Filter buttons (docs/PRODUCT.md §2 "status filter buttons"): one pressed at a time, keyboard-usable. */
export function FilterBar<K extends string>({
  label,
  options,
  selected,
  onSelect,
}: {
  label: string
  options: readonly { key: K; label: string }[]
  selected: K
  onSelect: (key: K) => void
}) {
  return (
    <div role="group" aria-label={label} className="filter-bar">
      {options.map((o) => (
        <button key={o.key} type="button" className="filter-option" aria-pressed={selected === o.key} onClick={() => onSelect(o.key)}>
          {o.label}
        </button>
      ))}
    </div>
  )
}

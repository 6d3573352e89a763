/** A busy indicator. With a label it is announced; without one it is decoration next to text. */
export function Spinner({ label }: { label?: string }) {
  return label ?
      <span role="status" className="spinner-wrap">
        <span className="spinner" aria-hidden="true" />
        <span className="sr-only">{label}</span>
      </span>
    : <span className="spinner" aria-hidden="true" />
}

/** A full-screen cover with a spinner and a visible message, e.g. while the session is checked. */
export function Overlay({ label }: { label: string }) {
  return (
    <div className="overlay" role="status" aria-live="polite">
      <span className="spinner spinner-lg" aria-hidden="true" />
      <p>{label}</p>
    </div>
  )
}

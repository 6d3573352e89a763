import { useLingui } from '@lingui/react/macro'

/** The hamburger button that shows and hides a collapsible menu on small screens. */
export function MenuButton({ open, controls, onClick }: { open: boolean; controls: string; onClick: () => void }) {
  const { t } = useLingui()
  return (
    <button type="button" className="menu-button" aria-expanded={open} aria-controls={controls} onClick={onClick}>
      <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
        {open ?
          <path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        : <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />}
      </svg>
      <span className="sr-only">{t`Menu`}</span>
    </button>
  )
}

import { useEffect, useState } from 'react'
import { useRouterState } from '@tanstack/react-router'

/** Open state of a collapsible menu (phones): closes on navigation and on Escape. */
export function useCollapsibleMenu() {
  const [open, setOpen] = useState(false)
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  useEffect(() => setOpen(false), [pathname])
  useEffect(() => {
    if (!open) return
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false)
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [open])
  return { open, toggle: () => setOpen((o) => !o) }
}

import { useEffect, useRef } from 'react'
import { useRouterState } from '@tanstack/react-router'

/**
 * After a navigation inside the app, moves focus to the main content so keyboard and screen
 * reader users start at the new page, as after a full page load. The first render is left alone.
 */
export function useFocusMainOnNavigate(): void {
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  const first = useRef(true)
  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    // Autofocused fields (a dialog, the reset form) keep their focus.
    if (document.activeElement && document.activeElement !== document.body && document.activeElement.closest('main')) return
    document.getElementById('main')?.focus({ preventScroll: true })
  }, [pathname])
}

import { useEffect } from 'react'

/** Sets the document title of a screen ("Profile · Boligkasse"); pass it already translated. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Boligkasse` : 'Boligkasse'
  }, [title])
}

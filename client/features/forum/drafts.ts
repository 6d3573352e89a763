/**
 * Forum drafts kept on the device (decision 0066): what a user types into a new thread or a reply is
 * saved in IndexedDB as they type (a moment after the last key), restored when they come back —
 * after a reload or offline too — and cleared once it is sent.
 */
import { useEffect, useRef, useState } from 'react'
import type { LocalDb } from '../../sync/local-db'

export const threadDraftKey = (companyId: string) => `thread:${companyId}`
export const replyDraftKey = (threadId: string) => `reply:${threadId}`

const SAVE_DELAY_MS = 300

export interface Draft {
  title: string
  body: string
}

/**
 * Calls `flush` when the page is being left or put away: `pagehide` (the tab closes, a reload, a
 * navigation away) and `visibilitychange` to hidden (the app switched away on a phone, where
 * `pagehide` may never come). Returns the unsubscribe.
 */
export function onLeavingPage(
  win: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>,
  doc: Pick<Document, 'addEventListener' | 'removeEventListener' | 'visibilityState'>,
  flush: () => void,
): () => void {
  const onVisibility = () => {
    if (doc.visibilityState === 'hidden') flush()
  }
  win.addEventListener('pagehide', flush)
  doc.addEventListener('visibilitychange', onVisibility)
  return () => {
    win.removeEventListener('pagehide', flush)
    doc.removeEventListener('visibilitychange', onVisibility)
  }
}

/**
 * The draft under `key`: `loaded` once the stored one was read; `set` saves as the user types,
 * `clear` forgets it (after sending).
 */
export function useDraft(db: LocalDb | undefined, key: string | null) {
  const [draft, setDraft] = useState<Draft>({ title: '', body: '' })
  const [loaded, setLoaded] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const pending = useRef<Draft | null>(null)

  useEffect(() => {
    if (!db || !key) return
    let gone = false
    setLoaded(false)
    void db.forumDrafts.get(key).then((stored) => {
      if (gone) return
      setDraft({ title: stored?.title ?? '', body: stored?.body ?? '' })
      setLoaded(true)
    })
    return () => {
      gone = true
    }
  }, [db, key])

  const save = async (value: Draft) => {
    if (!db || !key) return
    if (!value.title.trim() && !value.body.trim()) await db.forumDrafts.delete(key)
    else await db.forumDrafts.put({ key, title: value.title, body: value.body, updatedAt: Date.now() })
  }

  // Saves what is waiting when the page is left before the delay passed.
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current)
      if (pending.current) void save(pending.current)
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only on leaving
    [db, key],
  )

  // The tab is closed or put away before the delay passed (a closing tab runs no more timers):
  // what waits is saved at once, so the last keys typed are not lost.
  useEffect(() => {
    if (!db || !key) return
    return onLeavingPage(window, document, () => {
      if (!pending.current) return
      if (timer.current) clearTimeout(timer.current)
      timer.current = null
      const value = pending.current
      pending.current = null
      void save(value)
    })
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `save` reads the same db and key
  }, [db, key])

  const set = (next: Partial<Draft>) => {
    setDraft((current) => {
      const value = { ...current, ...next }
      pending.current = value
      if (timer.current) clearTimeout(timer.current)
      timer.current = setTimeout(() => {
        pending.current = null
        void save(value)
      }, SAVE_DELAY_MS)
      return value
    })
  }

  const clear = async () => {
    if (timer.current) clearTimeout(timer.current)
    pending.current = null
    setDraft({ title: '', body: '' })
    if (db && key) await db.forumDrafts.delete(key)
  }

  return { draft, loaded, set, clear }
}

/**
 * Short messages that confirm an action or report a failure that did not happen in front of the
 * user (a queued change the server refused later). They disappear on their own; errors stay
 * longer. Anything the user must act on also stays visible where it belongs (the sync panel).
 */
import { createStore, useStore } from './store'

export interface Toast {
  id: number
  variant: 'success' | 'error' | 'info'
  text: string
}

const SHOWN_MS = { success: 4000, info: 5000, error: 8000 } as const
const MAX_SHOWN = 4

export const toastStore = createStore<Toast[]>([])
let nextId = 1

export function showToast(variant: Toast['variant'], text: string): void {
  const toast = { id: nextId++, variant, text }
  toastStore.set([...toastStore.get(), toast].slice(-MAX_SHOWN))
  setTimeout(() => dismissToast(toast.id), SHOWN_MS[variant])
}

export function dismissToast(id: number): void {
  toastStore.set(toastStore.get().filter((t) => t.id !== id))
}

export const useToasts = (): Toast[] => useStore(toastStore)

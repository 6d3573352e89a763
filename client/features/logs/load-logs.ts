import { z } from 'zod'
import { LOG_PAGE_SIZE, LogEntry } from '../../../shared/contract/logger'
import { api } from '../../lib/api'

const LogPage = z.array(LogEntry)

/** One page of the server log, newest first (GET /logger, super admin). */
export const loadLogs = (skip: number, search: string, signal?: AbortSignal) =>
  api('GET', '/logger', { query: { skip, take: LOG_PAGE_SIZE, search: search.trim() || undefined }, schema: LogPage, signal })

/** More may follow while the last page was full (docs/PRODUCT.md §2 "System logs"). */
export const mayHaveMore = (lastPage: readonly unknown[]) => lastPage.length === LOG_PAGE_SIZE

export const MESSAGE_PREVIEW_LENGTH = 100

/** The first 100 characters of a log message, with an ellipsis when cut. */
export const previewOf = (message: string) => (message.length > MESSAGE_PREVIEW_LENGTH ? `${message.slice(0, MESSAGE_PREVIEW_LENGTH)}…` : message)

/** The context as compact JSON for display; strings as they are. */
export const contextText = (context: unknown): string =>
  context === null || context === undefined ? ''
  : typeof context === 'string' ? context
  : JSON.stringify(context)

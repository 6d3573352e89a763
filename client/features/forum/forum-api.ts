/**
 * The forum calls that need a connection (decision 0066): following, moderation, reports. Threads and
 * posts come from the synced local copy (use-forum.ts) and change through the outbox (forum-mutations.ts).
 */
import { z } from 'zod'
import { ForumPost, ForumReport, ForumThread, type PostModerationRequest, type ThreadModerationRequest } from '../../../shared/contract/forum'
import { currentLocale } from '../../i18n/i18n'
import { api, ApiError, type ActionKey } from '../../lib/api'
import { nextCursorOf } from '../../sync/pull'
import { send, type SyncTransport } from '../../sync/transport'
import { sessionStore } from '../auth/session'

export const setFollowing = (id: string, following: boolean, action: ActionKey) =>
  api(following ? 'PUT' : 'DELETE', `/forum/threads/${id}/follow`, { schema: ForumThread, action })

export const moderateThread = (id: string, body: ThreadModerationRequest, action: ActionKey) =>
  api('POST', `/forum/threads/${id}/moderation`, { body, schema: ForumThread, action })

export const moderatePost = (id: string, body: PostModerationRequest, action: ActionKey) =>
  api('POST', `/forum/posts/${id}/moderation`, { body, schema: ForumPost, action })

export const reportPost = (id: string, reason: string, action: ActionKey): Promise<unknown> =>
  api('POST', `/forum/posts/${id}/report`, { body: { reason }, action })

const session: SyncTransport = { getToken: () => sessionStore.get().token, getLocale: currentLocale, fetch: (input, init) => fetch(input, init) }

/**
 * A page of a company's open reports and the cursor of the next page, from the `Link` header
 * (docs/API.md "Lists"; `lib/api.ts` gives no headers). Status 0 when there is no connection.
 */
export async function openReports(
  companyId: string,
  cursor?: string,
  transport: SyncTransport = session,
): Promise<{ items: ForumReport[]; next: string | undefined }> {
  let next: string | undefined
  const query = new URLSearchParams({ companyId, ...(cursor ? { cursor } : {}) })
  const answer = await send(transport, 'GET', `/forum/reports?${query}`, { onResponse: (res) => void (next = nextCursorOf(res.headers.get('Link'))) })
  if (answer.status !== 200) {
    const error = answer.body as { code?: string; message?: string } | undefined
    throw new ApiError(answer.status, error?.code ?? 'UNKNOWN', error?.message ?? '')
  }
  const items = z.array(ForumReport).safeParse(answer.body)
  if (!items.success) throw new ApiError(answer.status, 'INVALID_RESPONSE', '')
  return { items: items.data, next }
}

export const resolveReport = (id: string, action: ActionKey): Promise<unknown> => api('POST', `/forum/reports/${id}/resolve`, { action })

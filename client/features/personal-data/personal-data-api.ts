/**
 * Personal data (issue #23, decision 0069): the member's downloads (fetched with the session, since
 * a plain link cannot carry the bearer token, and saved under the server's file name) and the
 * erase request staff send. Both need a connection; nothing here is queued offline.
 */
import { EraseMemberRequest, Erasure } from '../../../shared/contract/personal-data'
import { api, API_BASE, ApiError, type ActionKey } from '../../lib/api'
import { sessionStore } from '../auth/session'

export type DownloadKind = 'json' | 'html'

/** The file name in a `Content-Disposition: attachment; filename="…"` header. */
export const fileNameOf = (disposition: string | null, fallback: string): string => /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? fallback

/** Fetches the download and hands it to the browser as a file. */
export async function downloadPersonalData(kind: DownloadKind, locale: string): Promise<void> {
  const token = sessionStore.get().token
  let res: Response
  try {
    res = await fetch(`${API_BASE}/account/personal-data${kind === 'html' ? '.html' : ''}`, {
      headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), 'Accept-Language': locale },
    })
  } catch {
    throw new ApiError(0, 'NETWORK_ERROR', '')
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => undefined)) as { code?: string; message?: string } | undefined
    throw new ApiError(res.status, body?.code ?? 'UNKNOWN', body?.message ?? '')
  }
  const blob = await res.blob()
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = fileNameOf(res.headers.get('Content-Disposition'), `boligkasse-personal-data.${kind}`)
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

export const eraseMember = (companyId: string, userId: string, body: EraseMemberRequest, action: ActionKey): Promise<Erasure> =>
  api('POST', `/companies/${companyId}/members/${userId}/erase`, { body: EraseMemberRequest.parse(body), schema: Erasure, action })

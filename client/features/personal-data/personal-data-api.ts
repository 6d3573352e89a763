/**
 * Personal data (decisions 0069 and 0080): the member's downloads (fetched with the session, since
 * a plain link cannot carry the bearer token, and saved under the server's file name) and the
 * erasure requests: the member's own, and the association's that staff record, approve and reject.
 * All need a connection; nothing here is queued offline.
 */
import {
  ErasureRequest,
  ErasureRequestList,
  FileErasureRequest,
  MyErasureRequests,
  RecordErasureRequest,
  RejectErasureRequest,
} from '../../../shared/contract/personal-data'
import { api, apiFile, saveBlob, type ActionKey } from '../../lib/api'

export type DownloadKind = 'json' | 'html'

/** Fetches the download and hands it to the browser as a file under the server's name for it. */
export async function downloadPersonalData(kind: DownloadKind): Promise<void> {
  const file = await apiFile(`/account/personal-data${kind === 'html' ? '.html' : ''}`, `boligkasse-personal-data.${kind}`)
  saveBlob(file.blob, file.name)
}

export const myErasureRequests = (): Promise<MyErasureRequests> => api('GET', '/account/erasure-requests', { schema: MyErasureRequests })

export const fileErasureRequest = (companyId: string, action: ActionKey): Promise<ErasureRequest> =>
  api('POST', '/account/erasure-requests', { body: FileErasureRequest.parse({ companyId }), schema: ErasureRequest, action })

export const withdrawErasureRequest = (requestId: string, action: ActionKey): Promise<ErasureRequest> =>
  api('POST', `/account/erasure-requests/${requestId}/withdraw`, { schema: ErasureRequest, action })

export const companyErasureRequests = (companyId: string): Promise<ErasureRequest[]> =>
  api('GET', `/companies/${companyId}/erasure-requests`, { schema: ErasureRequestList })

export const recordErasureRequest = (companyId: string, body: RecordErasureRequest, action: ActionKey): Promise<ErasureRequest> =>
  api('POST', `/companies/${companyId}/erasure-requests`, { body: RecordErasureRequest.parse(body), schema: ErasureRequest, action })

export const approveErasureRequest = (companyId: string, requestId: string, action: ActionKey): Promise<ErasureRequest> =>
  api('POST', `/companies/${companyId}/erasure-requests/${requestId}/approve`, { schema: ErasureRequest, action })

export const rejectErasureRequest = (companyId: string, requestId: string, note: string, action: ActionKey): Promise<ErasureRequest> =>
  api('POST', `/companies/${companyId}/erasure-requests/${requestId}/reject`, { body: RejectErasureRequest.parse({ note }), schema: ErasureRequest, action })

/**
 * Personal data (decision 0069): the member's downloads (fetched with the session, since
 * a plain link cannot carry the bearer token, and saved under the server's file name) and the
 * erase request staff send. Both need a connection; nothing here is queued offline.
 */
import { EraseMemberRequest, Erasure } from '../../../shared/contract/personal-data'
import { api, apiFile, saveBlob, type ActionKey } from '../../lib/api'

export type DownloadKind = 'json' | 'html'

/** Fetches the download and hands it to the browser as a file under the server's name for it. */
export async function downloadPersonalData(kind: DownloadKind): Promise<void> {
  const file = await apiFile(`/account/personal-data${kind === 'html' ? '.html' : ''}`, `boligkasse-personal-data.${kind}`)
  saveBlob(file.blob, file.name)
}

export const eraseMember = (companyId: string, userId: string, body: EraseMemberRequest, action: ActionKey): Promise<Erasure> =>
  api('POST', `/companies/${companyId}/members/${userId}/erase`, { body: EraseMemberRequest.parse(body), schema: Erasure, action })

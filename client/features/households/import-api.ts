/**
 * The household import's calls (decision 0092): they need a connection — the file goes straight
 * to the server, which reads it, checks the addresses and answers what each row does.
 */
import { ImportReport } from '../../../shared/contract/household-import'
import { api, apiFile, type ActionKey } from '../../lib/api'

/** `startPaymentDate`: the first payment date of the agreements the import creates (decision 0093). */
export function runImport(
  companyId: string,
  file: File,
  mode: 'dryRun' | 'all' | 'onlyValid',
  startPaymentDate: string,
  action?: ActionKey,
): Promise<ImportReport> {
  const form = new FormData()
  form.set('file', file)
  const query = {
    ...(mode === 'dryRun' ? { dryRun: 'true' } : {}),
    ...(mode === 'onlyValid' ? { onlyValid: 'true' } : {}),
    ...(startPaymentDate ? { startPaymentDate } : {}),
  }
  return api('POST', `/companies/${companyId}/import`, { body: form, schema: ImportReport, query, action })
}

export const importTemplate = (companyId: string) => apiFile(`/companies/${companyId}/import/template`, 'households-template.xlsx')

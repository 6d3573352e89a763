import { useId, useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import type { JournalPage } from '../../../shared/contract/bookkeeping'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { createActionKey, errorMessage, saveBlob } from '../../lib/api'
import { newId } from '../../lib/ids'
import { createExport, fetchExportFile, offlineOf } from './bookkeeping-api'

/** Why an export would hold nothing, from the first journal page's counts (null on a later page: unknown). */
export type ExportBlocked = 'NOTHING_NEW' | 'NO_ENTRIES' | null

type Counts = Pick<JournalPage, 'vouchers' | 'unexported'> & Partial<Pick<JournalPage, 'unexportedByFormat'>>

/**
 * "Only entries not yet exported" with every voucher of the period exported already in this format
 * (each format keeps its own marks, decision 0079), or a period without vouchers at all: the file
 * would be empty, so the button is off and says why.
 */
export function exportBlocked(counts: Counts, onlyNew: boolean, format: 'CSV' | 'XLSX'): ExportBlocked {
  if (counts.vouchers === 0) return 'NO_ENTRIES'
  if (onlyNew && (counts.unexportedByFormat ? counts.unexportedByFormat[format] : counts.unexported) === 0) return 'NOTHING_NEW'
  return null
}

/** CSV and xlsx: the export is recorded (its entries marked) before the file is fetched; a retry reuses the export's id. */
export function ExportActions(props: { companyId: string; period: { from: string; to: string }; onlyNew: boolean; counts: Counts; onExported: () => void }) {
  const { t } = useLingui()
  const reasonId = useId()
  const [busy, setBusy] = useState<'CSV' | 'XLSX' | null>(null)
  const [notice, setNotice] = useState<{ variant: 'success' | 'error' | 'info'; text: string } | null>(null)
  const [pending] = useState(() => ({ key: createActionKey(), id: newId(), fingerprint: '' }))
  const blockedCsv = exportBlocked(props.counts, props.onlyNew, 'CSV')
  const blockedXlsx = exportBlocked(props.counts, props.onlyNew, 'XLSX')
  const blocked = blockedCsv ?? blockedXlsx

  async function run(format: 'CSV' | 'XLSX') {
    const fingerprint = `${format}:${props.period.from}:${props.period.to}:${props.onlyNew}`
    // The same export again after a failure keeps its id, so the server answers the one it made.
    if (pending.fingerprint !== fingerprint) Object.assign(pending, { id: newId(), fingerprint })
    setBusy(format)
    setNotice(null)
    try {
      const made = await createExport(props.companyId, { id: pending.id, ...props.period, format, onlyNew: props.onlyNew }, pending.key)
      const file = await fetchExportFile(props.companyId, made.id)
      saveBlob(file.blob, file.name)
      const count = made.entries
      const fileName = file.name
      setNotice({ variant: 'success', text: t`Exported: ${fileName} (${count} new vouchers marked as exported).` })
      pending.fingerprint = ''
      props.onExported()
    } catch (err) {
      setNotice(
        offlineOf(err) ?
          { variant: 'info', text: t`You are offline. Nothing was exported; try again when you are online.` }
        : { variant: 'error', text: errorMessage(err, t`The export failed. Try again.`) },
      )
    } finally {
      setBusy(null)
    }
  }

  const describedCsv = blockedCsv ? reasonId : undefined
  const describedXlsx = blockedXlsx ? reasonId : undefined
  return (
    <section aria-labelledby="export-heading" className="bookkeeping-section">
      <h2 id="export-heading">
        <Trans>Export</Trans>
      </h2>
      <p className="field-hint">
        {props.onlyNew ?
          <Trans>
            The file holds the entries not exported before in that format (CSV and xlsx each keep their own marks). They are then marked as exported, so nothing
            is posted twice from the same format.
          </Trans>
        : <Trans>The file holds every entry of the period; those exported before say when.</Trans>}
      </p>
      {notice && <Alert variant={notice.variant}>{notice.text}</Alert>}
      <div className="form-actions">
        <Button busy={busy === 'CSV'} disabled={busy !== null || blockedCsv !== null} aria-describedby={describedCsv} onClick={() => void run('CSV')}>
          <Trans>Export CSV</Trans>
        </Button>
        <Button
          variant="secondary"
          busy={busy === 'XLSX'}
          disabled={busy !== null || blockedXlsx !== null}
          aria-describedby={describedXlsx}
          onClick={() => void run('XLSX')}
        >
          <Trans>Export xlsx</Trans>
        </Button>
      </div>
      {blocked && (
        <p className="field-hint" id={reasonId}>
          {blocked === 'NO_ENTRIES' ?
            <Trans>Nothing to export: the period has no entries.</Trans>
          : blockedCsv && blockedXlsx ?
            <Trans>Nothing new to export since the last export: every entry of this period has been exported already.</Trans>
          : blockedCsv ?
            <Trans>Nothing new to export as CSV: every entry of this period has been exported as CSV already.</Trans>
          : <Trans>Nothing new to export as xlsx: every entry of this period has been exported as xlsx already.</Trans>}
        </p>
      )}
    </section>
  )
}

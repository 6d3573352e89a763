import { useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { todayIso } from '../../lib/format'
import { reportError } from '../../lib/report-error'
import { ExportError, exportTableToExcel } from './export-to-excel'

/** Export to Excel (docs/PRODUCT.md §2): busy and disabled while exporting; the docs/PRODUCT.md §8 messages when it cannot. */
export function ExportButton({ tableId, filename = 'export', sheetName = 'Sheet1' }: { tableId: string; filename?: string; sheetName?: string }) {
  const { t } = useLingui()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function run() {
    setBusy(true)
    setError(null)
    try {
      await exportTableToExcel({ tableId, filename, sheetName, today: todayIso() })
    } catch (err) {
      const reason = err instanceof ExportError ? err.reason : 'failed'
      if (reason === 'table-missing') setError(t`Table with id "${tableId}" not found. Please ensure the table exists.`)
      else if (reason === 'no-data') setError(t`No data available to export. Please ensure the table contains data.`)
      else {
        reportError(err, { where: 'export to Excel', tableId })
        setError(t`An error occurred while exporting to Excel. Please try again.`)
      }
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="export-button">
      <Button variant="secondary" busy={busy} onClick={() => void run()}>
        {busy ?
          <Trans>Exporting…</Trans>
        : <Trans>Export to Excel</Trans>}
      </Button>
      {error && <Alert variant="error">{error}</Alert>}
    </div>
  )
}

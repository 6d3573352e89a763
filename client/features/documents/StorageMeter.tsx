import { useId } from 'react'
import { Trans } from '@lingui/react/macro'
import type { StorageUsage } from '../../../shared/contract/storage'
import { formatBytes } from '../../../shared/domain/storage'
import { useLocale } from '../../i18n/use-locale'

/** From this share of the quota on, the meter warns and says what to do. */
const ALMOST_FULL = 0.9

/**
 * "Storage: 312 MB of 1 GB used" with a meter (docs/PRODUCT.md "Storage"): what the association's
 * documents, attachments and photos take of its quota, shown to its staff. The meter is labelled by
 * the sentence, so a screen reader says it whole.
 */
export function StorageMeter({ usage }: { usage: StorageUsage }) {
  const locale = useLocale()
  const id = useId()
  const used = formatBytes(usage.usedBytes, locale)
  const quota = formatBytes(usage.quotaBytes, locale)
  const almostFull = usage.usedBytes >= usage.quotaBytes * ALMOST_FULL
  return (
    <section className={`storage-meter${almostFull ? ' storage-meter-full' : ''}`}>
      <label htmlFor={id}>
        <Trans>
          Storage: {used} of {quota} used
        </Trans>
      </label>
      <meter id={id} min={0} max={usage.quotaBytes} low={usage.quotaBytes * 0.75} high={usage.quotaBytes * ALMOST_FULL} optimum={0} value={usage.usedBytes} />
      {almostFull && (
        <p className="storage-meter-hint">
          <Trans>The storage is almost full. Delete files the association no longer needs, or ask the administrator for more room.</Trans>
        </p>
      )}
    </section>
  )
}

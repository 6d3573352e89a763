import { Trans, useLingui } from '@lingui/react/macro'
import { livesThereOn } from '../../../shared/domain/household'
import { useLocale } from '../../i18n/use-locale'
import { formatDate, todayIso } from '../../lib/format'
import { useSync } from '../../sync/use-sync'
import { householdTypeLabels } from './labels'
import { addressLine, useOwnHouseholds } from './use-households'

/** The households the user lives in (docs/decisions/0090), on their profile, from the device's copy; nothing when none. */
export function OwnHouseholds({ userId }: { userId: string }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const today = todayIso()
  const homes = useOwnHouseholds(useSync(), userId, today)
  if (!homes?.length) return null
  return (
    <section className="card" aria-labelledby="own-households">
      <h2 id="own-households">
        <Trans>Your home</Trans>
      </h2>
      <ul className="plain-list" aria-label={t`Your home`}>
        {homes.map((h) => {
          const me = h.residents?.find((r) => r.userId === userId && livesThereOn(r, today))
          const others = (h.residents ?? []).filter((r) => r.userId !== userId && livesThereOn(r, today))
          return (
            <li key={h.id}>
              <strong>{addressLine(h)}</strong>
              {h.type && <span className="muted"> · {i18n._(householdTypeLabels[h.type])}</span>}
              {h.area && <span className="muted"> · {h.area.replace('.', locale === 'da' ? ',' : '.')} m²</span>}
              {me && (
                <div className="muted">
                  <Trans>Since {formatDate(me.moveInDate, locale)}</Trans>
                </div>
              )}
              {others.length > 0 && (
                <div className="muted">
                  <Trans>Lives with {others.map((r) => r.fullName).join(', ')}</Trans>
                </div>
              )}
            </li>
          )
        })}
      </ul>
    </section>
  )
}

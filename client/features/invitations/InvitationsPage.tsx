import { useState, type FormEvent } from 'react'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import type { InvitationPerson, InvitationProgress, InvitationSettings } from '../../../shared/contract/invitations'
import { isCompanyAdminStaff, isCompanyStaff } from '../../../shared/domain/roles'
import { copenhagenDateOf } from '../../../shared/domain/copenhagen'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { ConfirmDialog } from '../../components/ui/ConfirmDialog'
import { Spinner } from '../../components/ui/Spinner'
import { Switch } from '../../components/ui/Switch'
import { TextField } from '../../components/ui/TextField'
import { useLocale } from '../../i18n/use-locale'
import { ApiError } from '../../lib/api'
import { formatDate } from '../../lib/format'
import { usePageTitle } from '../../lib/use-page-title'
import { useSession } from '../auth/session'
import { roleOf } from '../shell/navigation'
import { useInvitations } from './use-invitations'
import './invitations.css'

type Notice = { variant: 'success' | 'error' | 'info'; text: string }

/** The server's refusal as it came (in the user's language), or the offline notice. */
function useFailureText() {
  const { t } = useLingui()
  return (err: unknown) =>
    err instanceof ApiError && err.status === 0 ? t`You are offline. Invitations need a connection.`
    : err instanceof ApiError ? err.message
    : t`Something went wrong. Please try again.`
}

/**
 * Invitations (route /invitations, docs/PRODUCT.md "Invitations", decision 0091): how many of the
 * association's residents — those with an agreement and the households' current residents — signed
 * in, how many of those with an agreement accepted, how many addresses bounced, who is
 * not done yet and when they were last invited or reminded; company admin staff invite everyone not
 * signed in (or the chosen) and set the reminders. It needs the connection and says so offline.
 */
export function InvitationsPage() {
  const { t } = useLingui()
  usePageTitle(t`Invitations`)
  const user = useSession().user
  const role = user ? roleOf(user) : 'USER'
  const reads = isCompanyStaff(role) || role === 'SUPERADMIN'
  const acts = isCompanyAdminStaff(role) || role === 'SUPERADMIN'
  const companyId = reads ? (user?.currentCompany?.id ?? null) : null
  const { state, more, invite, saveSettings } = useInvitations(companyId)
  const [notice, setNotice] = useState<Notice | null>(null)

  return (
    <div className="page invitations-page">
      <div className="page-header">
        <h1>
          <Trans>Invitations</Trans>
        </h1>
      </div>
      {!companyId ?
        <Alert variant="info">
          <Trans>Invitations are for the staff of an association. Choose your association first.</Trans>
        </Alert>
      : state.status === 'loading' ?
        <Spinner label={t`Loading invitations`} />
      : state.status === 'error' ?
        <Alert variant={state.offline ? 'info' : 'error'}>
          {state.offline ? t`You are offline. The progress of the invitations needs a connection.` : state.message || t`The invitations could not be loaded.`}
        </Alert>
      : <>
          <Progress progress={state.progress} />
          {notice && <Alert variant={notice.variant}>{notice.text}</Alert>}
          {acts && <InviteAll notInvited={state.progress.notInvited} invite={invite} onDone={setNotice} />}
          <People
            people={state.people}
            acts={acts}
            hasMore={state.progress.nextCursor !== null}
            loadingMore={state.loadingMore}
            onMore={() => void more()}
            invite={invite}
            onDone={setNotice}
          />
          <Reminders key={JSON.stringify(state.progress.settings)} settings={state.progress.settings} acts={acts} save={saveSettings} />
        </>
      }
    </div>
  )
}

/** n of m residents signed in, n of m with an agreement accepted, n bounced, and what is under way. */
function Progress({ progress: p }: { progress: InvitationProgress }) {
  const { total, signedIn, withAgreement, accepted, bounced } = p
  return (
    <section className="card" aria-labelledby="invitations-progress-title">
      <h2 id="invitations-progress-title">
        <Trans>Progress</Trans>
      </h2>
      {total === 0 ?
        <p className="empty">
          <Trans>Nobody lives in the association’s households or has an agreement with it yet.</Trans>
        </p>
      : <dl className="figure-list">
          <div data-figure="signed-in">
            <dt>
              <Trans>Signed in</Trans>
            </dt>
            <dd>
              <Trans>
                {signedIn} of {total} residents
              </Trans>
            </dd>
          </div>
          <div data-figure="accepted">
            <dt>
              <Trans>Accepted in Vipps MobilePay</Trans>
            </dt>
            <dd>
              {withAgreement === 0 ?
                <Trans>Nobody has an agreement yet</Trans>
              : <Trans>
                  {accepted} of {withAgreement} with an agreement
                </Trans>
              }
            </dd>
          </div>
          <div data-figure="bounced">
            <dt>
              <Trans>Bounced addresses</Trans>
            </dt>
            <dd>{bounced}</dd>
          </div>
        </dl>
      }
      {total > 0 && (
        <p className="field-hint invitations-note">
          <Trans>
            Residents are everyone living in the association’s households today and everyone with an agreement. Only those with an agreement have one to accept.
          </Trans>
        </p>
      )}
      {(p.notInvited > 0 || p.queued > 0) && (
        <p className="muted">
          {p.notInvited > 0 && <Plural value={p.notInvited} one="# person not invited yet." other="# people not invited yet." />}{' '}
          {p.queued > 0 && <Plural value={p.queued} one="# mail on its way." other="# mails on their way." />}
        </p>
      )}
    </section>
  )
}

/** "Invite all who have not signed in", asked once more before it goes. */
function InviteAll(p: {
  notInvited: number
  invite: (userIds?: string[]) => Promise<{ queued: number; alreadyInvited: number }>
  onDone: (n: Notice) => void
}) {
  const { t } = useLingui()
  const failure = useFailureText()
  const [asking, setAsking] = useState(false)
  const [busy, setBusy] = useState(false)
  const confirm = async () => {
    setBusy(true)
    try {
      const r = await p.invite()
      p.onDone({
        variant: 'success',
        text: r.queued > 0 ? t`${r.queued} invitations are on their way.` : t`Nobody new to invite: everyone not signed in was invited before.`,
      })
    } catch (err) {
      p.onDone({ variant: 'error', text: failure(err) })
    } finally {
      setBusy(false)
      setAsking(false)
    }
  }
  return (
    <div className="form-actions form-actions-start">
      <Button onClick={() => setAsking(true)} disabled={p.notInvited === 0} aria-describedby={p.notInvited === 0 ? 'invite-all-none' : undefined}>
        <Trans>Invite all who have not signed in</Trans>
      </Button>
      {p.notInvited === 0 && (
        <p id="invite-all-none" className="muted">
          <Trans>Everyone who has not signed in has been invited. Reminders follow the rules below.</Trans>
        </p>
      )}
      <ConfirmDialog
        open={asking}
        title={t`Invite ${p.notInvited} people?`}
        confirmLabel={t`Send the invitations`}
        tone="primary"
        busy={busy}
        onConfirm={() => void confirm()}
        onCancel={() => setAsking(false)}
      >
        <p>
          <Trans>
            Every resident who has not signed in gets one e-mail in their language with a link to choose a password and, if they have agreements, the agreements
            to accept in Vipps MobilePay. Nobody is invited twice.
          </Trans>
        </p>
      </ConfirmDialog>
    </div>
  )
}

/** Those not done yet, by name: where each stands and when they were last invited or reminded; the chosen can be invited. */
function People(p: {
  people: InvitationPerson[]
  acts: boolean
  hasMore: boolean
  loadingMore: boolean
  onMore: () => void
  invite: (userIds?: string[]) => Promise<{ queued: number; alreadyInvited: number }>
  onDone: (n: Notice) => void
}) {
  const { t } = useLingui()
  const failure = useFailureText()
  const [chosen, setChosen] = useState<Set<string>>(new Set())
  const [busy, setBusy] = useState(false)
  const choosable = (x: InvitationPerson) => p.acts && !x.signedIn && !x.bounced && !x.queued && x.lastSentAt === null
  const toggle = (id: string, on: boolean) =>
    setChosen((s) => {
      const next = new Set(s)
      if (on) next.add(id)
      else next.delete(id)
      return next
    })
  const inviteChosen = async () => {
    setBusy(true)
    try {
      const r = await p.invite([...chosen])
      setChosen(new Set())
      p.onDone({ variant: 'success', text: t`${r.queued} invitations are on their way.` })
    } catch (err) {
      p.onDone({ variant: 'error', text: failure(err) })
    } finally {
      setBusy(false)
    }
  }
  return (
    <section className="card" aria-labelledby="invitations-people-title">
      <h2 id="invitations-people-title">
        <Trans>Not signed in or not accepted yet</Trans>
      </h2>
      {p.people.length === 0 ?
        <p className="empty">
          <Trans>Everyone has signed in and accepted.</Trans>
        </p>
      : <ul className="invitations-people">
          {p.people.map((x) => (
            <PersonItem key={x.userId} person={x} choosable={choosable(x)} chosen={chosen.has(x.userId)} onChoose={(on) => toggle(x.userId, on)} />
          ))}
        </ul>
      }
      <div className="form-actions form-actions-start">
        {p.hasMore && (
          <Button variant="secondary" busy={p.loadingMore} onClick={p.onMore}>
            <Trans>Show more</Trans>
          </Button>
        )}
        {p.acts && chosen.size > 0 && (
          <Button busy={busy} onClick={() => void inviteChosen()}>
            <Plural value={chosen.size} one="Invite the # chosen" other="Invite the # chosen" />
          </Button>
        )}
      </div>
    </section>
  )
}

function PersonItem({
  person: x,
  choosable,
  chosen,
  onChoose,
}: {
  person: InvitationPerson
  choosable: boolean
  chosen: boolean
  onChoose: (on: boolean) => void
}) {
  const { t } = useLingui()
  const locale = useLocale()
  const id = `invitee-${x.userId}`
  return (
    <li className="invitations-person" data-user-id={x.userId}>
      <div className="invitations-person-name">
        {choosable && <input id={id} type="checkbox" checked={chosen} onChange={(e) => onChoose(e.target.checked)} aria-label={t`Choose ${x.name}`} />}
        <span>
          <strong>{x.name}</strong>
          <span className="muted cell-sub invitations-email">{x.email}</span>
        </span>
      </div>
      <div className="invitations-person-state">
        {x.bounced ?
          <Badge variant="error">
            <Trans>Address bounced</Trans>
          </Badge>
        : !x.signedIn ?
          <Badge variant="warning">
            <Trans>Not signed in</Trans>
          </Badge>
        : null}
        {x.toAccept > 0 && (
          <Badge variant="info">
            <Plural value={x.toAccept} one="# agreement to accept" other="# agreements to accept" />
          </Badge>
        )}
        {!x.hasAgreement && (
          <Badge variant="neutral">
            <Trans>No agreement</Trans>
          </Badge>
        )}
        <span className="muted cell-sub">
          {x.queued ?
            t`Invitation on its way`
          : x.lastSentAt ?
            <>
              {t`Last invited ${formatDate(copenhagenDateOf(new Date(x.lastSentAt)), locale)}`}
              {x.reminders > 0 && (
                <>
                  {' · '}
                  <Plural value={x.reminders} one="# reminder" other="# reminders" />
                </>
              )}
            </>
          : x.signedIn ?
            t`Signed in`
          : t`Not invited yet`}
        </span>
      </div>
    </li>
  )
}

/** The association's reminder rules: on or off, after how many days, how many at most. */
function Reminders({ settings, acts, save }: { settings: InvitationSettings; acts: boolean; save: (s: InvitationSettings) => Promise<InvitationSettings> }) {
  const { t } = useLingui()
  const failure = useFailureText()
  const [on, setOn] = useState(settings.remindersOn)
  const [days, setDays] = useState(String(settings.remindAfterDays))
  const [max, setMax] = useState(String(settings.maxReminders))
  const [busy, setBusy] = useState(false)
  const [notice, setNotice] = useState<Notice | null>(null)
  const [issues, setIssues] = useState<Record<string, string>>({})
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    setNotice(null)
    setIssues({})
    try {
      await save({ remindersOn: on, remindAfterDays: Number(days), maxReminders: Number(max) })
      setNotice({ variant: 'success', text: t`The reminder rules are saved.` })
    } catch (err) {
      if (err instanceof ApiError && err.issues?.length) setIssues(Object.fromEntries(err.issues.map((i) => [i.path, i.message])))
      else setNotice({ variant: 'error', text: failure(err) })
    } finally {
      setBusy(false)
    }
  }
  return (
    <section className="card" aria-labelledby="invitations-reminders-title">
      <h2 id="invitations-reminders-title">
        <Trans>Reminders</Trans>
      </h2>
      <p className="field-hint">
        <Trans>A reminder goes to those who have not signed in yet, or have an agreement to accept. An address that bounced gets nothing more.</Trans>
      </p>
      <form className="form" onSubmit={(e) => void submit(e)} noValidate>
        <Switch label={t`Send reminders`} checked={on} disabled={!acts} onChange={setOn} />
        <TextField
          label={t`Days after the last invitation or reminder`}
          type="number"
          inputMode="numeric"
          min={1}
          max={60}
          value={days}
          disabled={!acts || !on}
          error={issues.remindAfterDays}
          onChange={(e) => setDays(e.target.value)}
        />
        <TextField
          label={t`Reminders at most`}
          type="number"
          inputMode="numeric"
          min={0}
          max={5}
          value={max}
          disabled={!acts || !on}
          error={issues.maxReminders}
          onChange={(e) => setMax(e.target.value)}
        />
        {notice && <Alert variant={notice.variant}>{notice.text}</Alert>}
        {acts && (
          <div className="form-actions form-actions-start">
            <Button type="submit" variant="secondary" busy={busy}>
              <Trans>Save the reminder rules</Trans>
            </Button>
          </div>
        )}
      </form>
    </section>
  )
}

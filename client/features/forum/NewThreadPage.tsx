import { useState, type FormEvent } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useNavigate } from '@tanstack/react-router'
import { CreateThreadRequest, MAX_POST_BODY, MAX_THREAD_TITLE } from '../../../shared/contract/forum'
import { Alert } from '../../components/ui/Alert'
import { Button, buttonClass } from '../../components/ui/Button'
import { TextAreaField, TextField } from '../../components/ui/TextField'
import { issuesByField } from '../../lib/form-issues'
import { usePageTitle } from '../../lib/use-page-title'
import { useSync } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { useMemberCompany } from '../market/use-listings'
import { threadDraftKey, useDraft } from './drafts'
import { startThread } from './forum-mutations'
import { useOutcome } from './PostItem'
import './forum.css'

type Field = 'title' | 'body' | 'form'

/**
 * A new thread (decision 0066): a title and the opening post, through the outbox so it works offline.
 * What is typed is kept on the device as a draft (per association) until it is sent.
 */
export function NewThreadPage() {
  const { t, i18n } = useLingui()
  usePageTitle(t`New thread`)
  const navigate = useNavigate()
  const handle = useSync()
  const outcome = useOutcome()
  const user = useSession().user
  const memberOf = useMemberCompany(handle, user)
  // The association whose forum it is: the user's current one as staff, else the one they live in.
  const companyId = memberOf ?? undefined
  const { draft, loaded, set, clear } = useDraft(handle?.db, companyId ? threadDraftKey(companyId) : null)
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const [busy, setBusy] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!handle || !user || !companyId) return
    const typed = { title: draft.title, body: draft.body }
    const parsed = CreateThreadRequest.safeParse({ id: crypto.randomUUID(), postId: crypto.randomUUID(), companyId, title: draft.title, body: draft.body })
    if (!parsed.success) return setErrors(issuesByField<Field>(parsed.error.issues, i18n))
    setErrors({})
    setBusy(true)
    try {
      const body = { ...parsed.data, id: parsed.data.id!, postId: parsed.data.postId! }
      const queued = await startThread(handle, body, { id: user.id, fullName: user.fullName })
      // It is in the outbox now: the draft has done its job. Refused by the server, it is taken
      // back and what was typed returns to the form, with the reason.
      await clear()
      const kept = await outcome(handle, queued, { done: t`Your thread is in the forum.` }, (message) => {
        set(typed)
        setErrors({ form: message })
      })
      if (!kept) return
      void navigate({ to: '/forum/thread/$id', params: { id: body.id } })
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="page forum-new-page">
      <div className="page-header">
        <Link to="/forum" className={buttonClass('link')}>
          <Trans>← Back to the forum</Trans>
        </Link>
      </div>
      <h1>
        <Trans>New thread</Trans>
      </h1>
      {memberOf === null ?
        <Alert variant="info">
          <Trans>Only members of the association can write in its forum.</Trans>
        </Alert>
      : <form className="form card" noValidate onSubmit={(e) => void submit(e)}>
          {errors.form && <Alert variant="error">{errors.form}</Alert>}
          <TextField
            label={t`Title`}
            value={draft.title}
            onChange={(e) => set({ title: e.target.value })}
            error={errors.title}
            maxLength={MAX_THREAD_TITLE}
            required
            disabled={!loaded}
          />
          <TextAreaField
            label={t`Your post`}
            hint={t`Kept on this device as a draft until you send it.`}
            value={draft.body}
            onChange={(e) => set({ body: e.target.value })}
            error={errors.body}
            rows={8}
            maxLength={MAX_POST_BODY}
            required
            disabled={!loaded}
          />
          <div className="form-actions">
            <Button type="submit" busy={busy} disabled={busy || !companyId || !loaded}>
              <Trans>Start thread</Trans>
            </Button>
          </div>
        </form>
      }
    </div>
  )
}

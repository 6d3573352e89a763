import { useState, type FormEvent } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { CreateReplyRequest, MAX_POST_BODY } from '../../../shared/contract/forum'
import { Button } from '../../components/ui/Button'
import { TextAreaField } from '../../components/ui/TextField'
import { issuesByField } from '../../lib/form-issues'
import type { SyncHandle } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { replyDraftKey, useDraft } from './drafts'
import { sendReply } from './forum-mutations'
import { useOutcome } from './PostItem'
import type { ThreadView } from './use-forum'

/** The reply box: what is typed is kept on the device as a draft until it is sent (also offline, through the outbox). */
export function ReplyBox({ handle, thread }: { handle: SyncHandle; thread: ThreadView }) {
  const { t, i18n } = useLingui()
  const user = useSession().user
  const outcome = useOutcome()
  const { draft, loaded, set, clear } = useDraft(handle.db, replyDraftKey(thread.id))
  const [error, setError] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)
  const send = async (event: FormEvent) => {
    event.preventDefault()
    if (!user || !thread.companyId) return
    const typed = draft.body
    const parsed = CreateReplyRequest.safeParse({ id: crypto.randomUUID(), body: typed })
    if (!parsed.success) return setError(issuesByField<'body'>(parsed.error.issues, i18n).body)
    setError(undefined)
    setBusy(true)
    try {
      const queued = await sendReply(
        handle,
        { id: thread.id, companyId: thread.companyId },
        { id: parsed.data.id!, body: parsed.data.body },
        { id: user.id, fullName: user.fullName },
      )
      // It is in the outbox now: the draft has done its job. Refused by the server (or met a newer
      // version), it is taken back and what was typed returns to the box, with the reason.
      await clear()
      await outcome(handle, queued, { done: t`Your reply was posted.` }, (message) => {
        set({ body: typed })
        setError(message)
      })
    } finally {
      setBusy(false)
    }
  }
  return (
    <section className="forum-reply" aria-labelledby="forum-reply-title">
      <h2 id="forum-reply-title">
        <Trans>Reply</Trans>
      </h2>
      <form className="form card" noValidate onSubmit={(e) => void send(e)}>
        <TextAreaField
          label={t`Your reply`}
          hint={t`Kept on this device as a draft until you send it.`}
          value={draft.body}
          onChange={(e) => set({ body: e.target.value })}
          error={error}
          rows={5}
          maxLength={MAX_POST_BODY}
          disabled={!loaded}
        />
        <div className="form-actions">
          <Button type="submit" busy={busy} disabled={busy || !loaded}>
            <Trans>Send reply</Trans>
          </Button>
        </div>
      </form>
    </section>
  )
}

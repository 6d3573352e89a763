import { useState, type FormEvent } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { messages } from '../../../shared/i18n-messages'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { TextAreaField } from '../../components/ui/TextField'
import { usePageTitle } from '../../lib/use-page-title'
import { sendContactMessage } from './send-contact-message'

export function ContactPage() {
  const { t, i18n } = useLingui()
  const [message, setMessage] = useState('')
  const [blank, setBlank] = useState(false)
  const [sending, setSending] = useState(false)
  const [result, setResult] = useState<'sent' | 'failed' | null>(null)
  usePageTitle(t`Contact us`)

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    setBlank(!message.trim())
    if (!message.trim()) return
    setSending(true)
    setResult(null)
    try {
      await sendContactMessage(message)
      setMessage('')
      setResult('sent')
    } catch {
      setResult('failed')
    } finally {
      setSending(false)
    }
  }

  return (
    <div className="page page-narrow">
      <h1>
        <Trans>Contact us</Trans>
      </h1>
      <p className="lead">
        <Trans>Do you have a question about Boligkasse, your agreement or your association? Write to us and we will answer as soon as we can.</Trans>
      </p>
      <div className="card">
        {result === 'sent' && (
          <Alert variant="success">
            <Trans>Message sent successfully! We'll get back to you soon.</Trans>
          </Alert>
        )}
        {result === 'failed' && (
          <Alert variant="error">
            <Trans>Failed to send message. Please try again.</Trans>
          </Alert>
        )}
        <form onSubmit={(e) => void onSubmit(e)} className="form">
          <TextAreaField
            label={t`Message`}
            name="message"
            rows={6}
            required
            error={blank ? i18n._(messages.required) : null}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
          />
          <div className="form-actions">
            <Button type="submit" disabled={sending}>
              {sending ?
                <Trans>Sending...</Trans>
              : <Trans>Send</Trans>}
            </Button>
          </div>
        </form>
      </div>
    </div>
  )
}

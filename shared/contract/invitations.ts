import { z } from 'zod'
import { messages as m } from '../i18n-messages'

/**
 * Invitations at scale (docs/PRODUCT.md "Invitations", docs/decisions/0091): staff invite every
 * person with an agreement in the association, and every current resident of its households
 * (docs/decisions/0090), who has never signed in; see how many signed in (of all of them) and
 * accepted (of those with an agreement), and set the reminders; a bounced address is stopped and shown.
 */

/** The most people one request may name (a selection on the screen; "everyone" names none). */
export const INVITE_SELECTION_MAX = 1000

/** `POST /companies/{companyId}/invitations`: everyone not signed in yet, or only these of them (`userIds`). */
export const InviteRequest = z
  .object({
    userIds: z
      .array(z.uuid({ error: m.invitationPersonInvalid.id }), { error: m.invitationPersonInvalid.id })
      .min(1, { error: m.invitationSelectionEmpty.id })
      .max(INVITE_SELECTION_MAX, { error: m.invitationSelectionTooLarge.id })
      .optional(),
  })
  .strict()
  .meta({ id: 'InviteRequest' })
export type InviteRequest = z.infer<typeof InviteRequest>

/** What an invite request did: how many it queued now, and how many of those asked for were invited before. */
export const InviteResult = z
  .object({
    queued: z.number().int().min(0),
    alreadyInvited: z.number().int().min(0),
  })
  .meta({ id: 'InviteResult' })
export type InviteResult = z.infer<typeof InviteResult>

/** The reminder rules of an association: on or off, after how many days, how many at most. */
export const InvitationSettings = z
  .object({
    remindersOn: z.boolean({ error: m.invitationRemindersOnInvalid.id }),
    remindAfterDays: z
      .number({ error: m.invitationRemindAfterInvalid.id })
      .int({ error: m.invitationRemindAfterInvalid.id })
      .min(1, { error: m.invitationRemindAfterInvalid.id })
      .max(60, { error: m.invitationRemindAfterInvalid.id }),
    maxReminders: z
      .number({ error: m.invitationMaxRemindersInvalid.id })
      .int({ error: m.invitationMaxRemindersInvalid.id })
      .min(0, { error: m.invitationMaxRemindersInvalid.id })
      .max(5, { error: m.invitationMaxRemindersInvalid.id }),
  })
  .strict()
  .meta({ id: 'InvitationSettings' })
export type InvitationSettings = z.infer<typeof InvitationSettings>

/** Where one person stands. */
export const InvitationPerson = z
  .object({
    userId: z.string(),
    name: z.string(),
    email: z.string(),
    signedIn: z.boolean(),
    /** Agreements still to accept in Vipps MobilePay (offered, not yet accepted). */
    toAccept: z.number().int().min(0),
    /** Has a living agreement in the association (false: a current resident of a household without one). */
    hasAgreement: z.boolean(),
    /** Every living agreement is accepted (running at Vipps MobilePay); false without an agreement. */
    accepted: z.boolean(),
    /** The address bounced or complained: nothing more goes to it. */
    bounced: z.boolean(),
    /** When the last invitation or reminder went (null: none yet, or only queued). */
    lastSentAt: z.string().nullable(),
    /** How many reminders went after the invitation. */
    reminders: z.number().int().min(0),
    /** An invitation or reminder is queued and not sent yet. */
    queued: z.boolean(),
  })
  .meta({ id: 'InvitationPerson' })
export type InvitationPerson = z.infer<typeof InvitationPerson>

/** `GET /companies/{companyId}/invitations`: the counts, and a page of those not done yet. */
export const InvitationProgress = z
  .object({
    /** Everyone the association invites: people with a living agreement and the households' current residents. */
    total: z.number().int().min(0),
    /** Of `total`. */
    signedIn: z.number().int().min(0),
    /** Those of `total` with a living agreement (offered, waiting at Vipps MobilePay or running). */
    withAgreement: z.number().int().min(0),
    /** Of `withAgreement`: every living agreement accepted. */
    accepted: z.number().int().min(0),
    bounced: z.number().int().min(0),
    /** Not signed in yet and not invited yet: what "Invite all" would queue now. */
    notInvited: z.number().int().min(0),
    /** Invitations and reminders queued, not sent yet. */
    queued: z.number().int().min(0),
    settings: InvitationSettings,
    /** Those who have not signed in, or have an agreement not accepted, by name. */
    people: z.array(InvitationPerson),
    /** Pass as `cursor` for the next page; null on the last. */
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'InvitationProgress' })
export type InvitationProgress = z.infer<typeof InvitationProgress>

export const InvitationProgressQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50).meta({ description: 'People per page, 1–200 (default 50)' }),
  cursor: z.string().max(500).optional().meta({ description: "Where the page starts: the previous answer's `nextCursor`" }),
})

/**
 * `POST /webhooks/mail-bounce`: the mail provider's notice that a mail bounced (docs/decisions/0091),
 * signed with MAIL_WEBHOOK_SECRET (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`).
 */
export const MailBounceEvent = z
  .object({
    type: z.enum(['bounce', 'complaint']),
    /** A soft bounce (mailbox full, greylisting) is only acknowledged; a hard one stops further mail. */
    bounceType: z.enum(['hard', 'soft']).optional(),
    email: z.email().max(254),
    /** The Message-ID of our mail (`<mail id@boligkasse>`), when the provider says. */
    messageId: z.string().max(300).optional(),
    reason: z.string().max(2000).optional(),
  })
  .meta({ id: 'MailBounceEvent' })
export type MailBounceEvent = z.infer<typeof MailBounceEvent>

import { z } from 'zod'
import { CLOCK_TIME, pushGroups } from '../domain/push'

/** Push notifications to phones (docs/decisions/0088-push-notifications.md, docs/API.md "Push"). */
export const pushMessages = {
  endpointInvalid: /*i18n*/ { id: 'The push address of this device is not valid' },
  keyInvalid: /*i18n*/ { id: 'The push keys of this device are not valid' },
  quietTimeInvalid: /*i18n*/ { id: 'Enter a time as HH:MM, e.g. 22:00' },
  quietBoth: /*i18n*/ { id: 'Quiet hours need both a start and an end' },
  quietSame: /*i18n*/ { id: 'Quiet hours must start and end at different times' },
  deviceNotFound: /*i18n*/ { id: 'This device is not signed up for notifications' },
}

export const PushGroup = z.enum(pushGroups)

/** The server's VAPID public key (base64url, an uncompressed P-256 point), what `pushManager.subscribe` takes as `applicationServerKey`. */
export const VapidPublicKey = z.object({ publicKey: z.string() }).meta({ id: 'VapidPublicKey' })
export type VapidPublicKey = z.infer<typeof VapidPublicKey>

/** base64url of exactly `bytes` bytes (with or without `=` padding), as `PushSubscription.toJSON()` gives the keys. */
const base64url = (bytes: number) => {
  const chars = Math.ceil((bytes * 4) / 3)
  return z.string().regex(new RegExp(`^[A-Za-z0-9_-]{${chars}}=*$`), pushMessages.keyInvalid.id)
}

/** What `PushSubscription.toJSON()` gives, and a label for the profile's list (browser and system). */
export const PushSubscribeRequest = z
  .object({
    endpoint: z.url({ protocol: /^https?$/, error: pushMessages.endpointInvalid.id }).max(1000, pushMessages.endpointInvalid.id),
    keys: z.object({ p256dh: base64url(65), auth: base64url(16) }),
    label: z.string().trim().max(100).optional(),
  })
  .meta({ id: 'PushSubscribeRequest' })
export type PushSubscribeRequest = z.infer<typeof PushSubscribeRequest>

/** A device of the caller's that takes pushes (the endpoint is not shown: it is a secret of the device). */
export const PushDevice = z
  .object({
    id: z.uuid(),
    label: z.string(),
    createdAt: z.iso.datetime(),
    lastSuccessAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'PushDevice' })
export type PushDevice = z.infer<typeof PushDevice>

/** Removing a device by its endpoint (the device knows its endpoint, not the row's id). */
export const PushUnsubscribeRequest = z.object({ endpoint: z.string().min(1).max(1000) }).meta({ id: 'PushUnsubscribeRequest' })

const clockTime = z.string().regex(CLOCK_TIME, pushMessages.quietTimeInvalid.id).nullable()

/** Which groups of notifications are pushed, and quiet hours (Copenhagen `HH:mm`, both or neither) during which pushes wait. */
export const PushPreferences = z
  .object({
    groups: z.array(PushGroup).max(pushGroups.length),
    quietFrom: clockTime,
    quietTo: clockTime,
  })
  .superRefine((p, ctx) => {
    if ((p.quietFrom === null) !== (p.quietTo === null))
      ctx.addIssue({ code: 'custom', path: [p.quietFrom === null ? 'quietFrom' : 'quietTo'], message: pushMessages.quietBoth.id })
    else if (p.quietFrom !== null && p.quietFrom === p.quietTo) ctx.addIssue({ code: 'custom', path: ['quietTo'], message: pushMessages.quietSame.id })
  })
  .meta({ id: 'PushPreferences' })
export type PushPreferences = z.infer<typeof PushPreferences>

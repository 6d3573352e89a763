import { z } from 'zod'

export const notificationTypes = ['success', 'warning', 'error', 'info'] as const
export const NotificationType = z.enum(notificationTypes)

/** Spec §3 Notification; `message` is sanitized HTML. */
export const Notification = z
  .object({
    id: z.uuid(),
    title: z.string(),
    message: z.string(),
    type: NotificationType,
    isRead: z.boolean(),
    actionUrl: z.string().nullable(),
    actionText: z.string().nullable(),
    createdAt: z.iso.datetime(),
    version: z.number().int(),
  })
  .meta({ id: 'Notification' })
export type Notification = z.infer<typeof Notification>

export const UnreadCount = z.object({ count: z.number().int() }).meta({ id: 'UnreadCount' })
export const ReadAllResponse = z.object({ updated: z.number().int() }).meta({ id: 'ReadAllResponse' })

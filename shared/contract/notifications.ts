import { z } from 'zod'

export const notificationTypes = ['success', 'warning', 'error', 'info'] as const
export const NotificationType = z.enum(notificationTypes)

/** What a notification says in one language; `message` is sanitized HTML. */
export const NotificationText = z.object({ title: z.string(), message: z.string(), actionText: z.string().nullable() }).meta({ id: 'NotificationText' })
export type NotificationText = z.infer<typeof NotificationText>

/**
 * docs/PRODUCT.md §3 Notification; `message` is sanitized HTML. `title`, `message` and `actionText` are in
 * the user's language; `localized` has the text in each language the app speaks, so a device
 * shows it in the language chosen there, also offline. It is null for notifications made before
 * their content was kept (those read only as they were written).
 */
export const Notification = z
  .object({
    id: z.uuid(),
    title: z.string(),
    message: z.string(),
    type: NotificationType,
    isRead: z.boolean(),
    actionUrl: z.string().nullable(),
    actionText: z.string().nullable(),
    localized: z.object({ en: NotificationText, da: NotificationText }).nullable().optional(),
    createdAt: z.iso.datetime(),
    version: z.number().int(),
  })
  .meta({ id: 'Notification' })
export type Notification = z.infer<typeof Notification>

export const UnreadCount = z.object({ count: z.number().int() }).meta({ id: 'UnreadCount' })
export const ReadAllResponse = z.object({ updated: z.number().int() }).meta({ id: 'ReadAllResponse' })

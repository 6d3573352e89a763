import { defineModule } from '../../kernel/module'
import { notifications } from '../../db/schema/notifications'
import { createNotificationsService, notificationSync, type NotificationsService } from './notifications.service'
import { createNoticesService, type NoticesService } from './notices'
import { notificationsRoutes } from './notifications.routes'

declare module '../../kernel/module' {
  interface Services {
    notifications: NotificationsService
    /** Tells a user in-app and by e-mail, in their language. */
    notices: NoticesService
  }
}

/** In-app notifications, and notices: one call tells a user in the app and by e-mail. */
export const notificationsModule = defineModule({
  name: 'notifications',
  tables: [notifications],
  services: {
    notifications: (s, k) =>
      createNotificationsService({
        db: k.db,
        clock: k.clock,
        users: s.users,
        // Pushes to the people's phones, queued in the notification's transaction and sent after it (docs/decisions/0088).
        queuePush: (people, notification) => s.push.queue(people, notification),
      }),
    notices: (s, k) => createNoticesService({ db: k.db, clock: k.clock, publicUrl: k.config.publicUrl, users: s.users, notifications: s.notifications }),
  },
  routes: (s) => [notificationsRoutes(s.notifications)],
  sync: () => [notificationSync],
})

// What other features use of this one (docs/ARCHITECTURE.md "Layers": a feature is reached through its entry).
export type { Addressee, Notice, NoticesService } from './notices'
export type { NotificationsService } from './notifications.service'

import { defineModule } from '../../kernel/module'
import { viewedScope } from '../../access/scope'
import { forumFollows, forumModerationEvents, forumPosts, forumReports, forumThreads } from '../../db/schema/forum'
import { createForumService, type ForumService } from './forum.service'
import { forumRoutes } from './forum.routes'

declare module '../../kernel/module' {
  interface Services {
    forum: ForumService
  }
}

/** The association's forum: threads, replies, follows and the board's moderation (docs/decisions/0066). */
export const forumModule = defineModule({
  name: 'forum',
  tables: [forumThreads, forumPosts, forumFollows, forumReports, forumModerationEvents],
  services: {
    forum: (s, k) =>
      createForumService({ db: k.db, clock: k.clock, companies: s.companies, residency: s.residency, notices: s.notices, notifications: s.notifications }),
  },
  routes: (s) => [forumRoutes(s.forum)],
  scopes: (s) => ({
    forumThread: viewedScope((actor, id) => s.forum.thread(actor, id)),
    forumPost: viewedScope((actor, id) => s.forum.postOf(actor, id)),
  }),
  sync: (s) => [s.forum.threadSync(), s.forum.postSync()],
})

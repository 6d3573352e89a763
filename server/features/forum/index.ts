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
  // Who may write, edit, moderate and report (forum.service.ts), decided before the body too.
  acts: (s) => ({
    'forum:write': (actor, companyId) => s.forum.assertMember(actor, companyId),
    'forum:reply': async (actor, id) => void (await s.forum.repliable(actor, id)),
    'forum:author': async (actor, id) => void (await s.forum.ownPost(actor, id)),
    'forum:moderateThread': async (actor, id) => void (await s.forum.moderatedThread(actor, id)),
    'forum:moderatePost': async (actor, id) => void (await s.forum.moderatedPost(actor, id)),
    'forum:report': async (actor, id) => void (await s.forum.reportable(actor, id)),
  }),
  sync: (s) => [s.forum.threadSync(), s.forum.postSync()],
})

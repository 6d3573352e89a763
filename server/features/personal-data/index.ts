import { z } from 'zod'
import { defineModule } from '../../kernel/module'
import { personalDataErasureRequests, personalDataErasures } from '../../db/schema/erasures'
import { RateLimiter } from '../../http/rate-limit'
import { createPersonalDataService, type PersonalDataService } from './personal-data.service'
import { personalDataRoutes } from './personal-data.routes'

declare module '../../kernel/module' {
  interface Services {
    personalData: PersonalDataService
  }
}

/** A person's data: the download (docs/decisions/0069), and the erasure on the member's request a second staff member approves (docs/decisions/0080). */
export const personalDataModule = defineModule({
  name: 'personal-data',
  tables: [personalDataErasures, personalDataErasureRequests],
  services: {
    personalData: (s, k) =>
      createPersonalDataService({
        db: k.db,
        clock: k.clock,
        actorChanged: s.users.actorChanged,
        mailFilesDir: k.config.smtpUrl ? undefined : k.config.mailOutboxDir,
      }),
  },
  routes: (s, k) => [personalDataRoutes(s.personalData, { download: new RateLimiter(k.clock, 10, 3_600_000) })],
  // Who may record and reject erasure requests, decided before the body too (server/access/scope.ts).
  acts: (s) => ({
    'erasure:record': (actor, companyId) => s.personalData.assertMayRecord(actor, companyId),
    'erasure:reject': async (actor, companyId, { params }) => {
      if (params.requestId && z.uuid().safeParse(params.requestId).success) await s.personalData.rejectable(actor, companyId, params.requestId)
    },
  }),
})

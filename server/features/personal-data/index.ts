import { defineModule } from '../../kernel/module'
import { personalDataErasures } from '../../db/schema/erasures'
import { RateLimiter } from '../../http/rate-limit'
import { createPersonalDataService, type PersonalDataService } from './personal-data.service'
import { personalDataRoutes } from './personal-data.routes'

declare module '../../kernel/module' {
  interface Services {
    personalData: PersonalDataService
  }
}

/** A person's data: the download, and the erase staff carry out on request (docs/decisions/0069). */
export const personalDataModule = defineModule({
  name: 'personal-data',
  tables: [personalDataErasures],
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
})

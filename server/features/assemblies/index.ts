import { defineModule } from '../../kernel/module'
import { viewedScope } from '../../access/scope'
import { assemblyProposals, generalAssemblies, sendouts } from '../../db/schema/assemblies'
import { assemblySync, createAssembliesService, proposalSync, type AssembliesService } from './assemblies.service'
import { assembliesRoutes } from './assemblies.routes'

declare module '../../kernel/module' {
  interface Services {
    assemblies: AssembliesService
  }
}

/** General assemblies, proposals, their notices and reminders, and the water and heat reading reminders (docs/decisions/0061). */
export const assembliesModule = defineModule({
  name: 'assemblies',
  tables: [generalAssemblies, assemblyProposals, sendouts],
  services: {
    // Their sendouts reach whom a message to all members reaches.
    assemblies: (s, k) => createAssembliesService({ db: k.db, clock: k.clock, companies: s.companies, notices: s.notices, membership: s.residency }),
  },
  routes: (s) => [assembliesRoutes(s.assemblies)],
  scopes: (s) => ({ assembly: viewedScope((actor, id) => s.assemblies.view(actor, id)) }),
  // A proposal is a member's (staff or resident), decided before the body too.
  acts: (s) => ({ 'assembly:propose': async (actor, id) => await s.assemblies.assertMayPropose(actor, (await s.assemblies.view(actor, id)).companyId) }),
  sync: (s) => [assemblySync(s.assemblies), proposalSync(s.assemblies)],
  // Sends general assemblies' notices and reminders, and the water and heat reading reminders, when their time comes.
  jobs: (s) => [{ name: 'assemblies', everyMs: 2000, run: async () => await s.assemblies.tick() }],
})

// What other features use of this one (docs/ARCHITECTURE.md "Layers": a feature is reached through its entry).
export type { AssembliesService } from './assemblies.service'

import { defineModule } from '../../kernel/module'
import { statementSendoutRecipients, statementSendouts } from '../../db/schema/statements'
import { createAccountStatementService, type AccountStatementService } from './account-statement.service'
import { createStatementSendoutsService, type StatementSendoutsService } from './statement-sendouts.service'
import { accountStatementRoutes } from './account-statement.routes'
import { statementSendoutsRoutes } from './statement-sendouts.routes'

declare module '../../kernel/module' {
  interface Services {
    accountStatements: AccountStatementService
    statementSendouts: StatementSendoutsService
  }
}

/** Members' account statements, read from billing's invoices and charges, and the yearly sendouts (docs/decisions/0068). */
export const accountStatementModule = defineModule({
  name: 'account-statement',
  tables: [statementSendouts, statementSendoutRecipients],
  services: {
    accountStatements: (_s, k) => createAccountStatementService({ database: k.database, clock: k.clock }),
    statementSendouts: (s, k) => createStatementSendoutsService({ db: k.db, clock: k.clock, notices: s.notices }),
  },
  routes: (s) => [accountStatementRoutes(s.accountStatements), statementSendoutsRoutes(s.statementSendouts)],
  // Sends the yearly account statements staff queued to every member of their association, each year once.
  jobs: (s) => [{ name: 'statements', everyMs: 2000, run: async () => void (await s.statementSendouts.tick()) }],
})

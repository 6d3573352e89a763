/**
 * Every kind of change the client queues, registered in one place (docs/OFFLINE.md "Outbox"): imported
 * once at start-up (app.tsx), before anything reads the queue, so the sync panel names every
 * waiting change ("Refund", "One-off payment", "Termination") even when the screen that made it
 * was never opened in this session — never the bare "Change". A new feature module that calls
 * `engine.mutate` belongs in this list (all-mutation-kinds.test.ts checks it).
 */
import '../features/agreements/agreement-mutations'
import '../features/articles/article-mutations'
import '../features/assemblies/assembly-mutations'
import '../features/billing/billing-mutations'
import '../features/companies/company-child-mutations'
import '../features/companies/company-mutations'
import '../features/documents/document-mutations'
import '../features/forum/forum-mutations'
import '../features/households/household-mutations'
import '../features/lending/lending-mutations'
import '../features/market/market-mutations'
import '../features/messages/message-mutations'
import '../features/notifications/notification-mutations'
import '../features/payment-providers/provider-mutations'
import '../features/specialists/specialist-mutations'

// GENERATED from server/db/schema/assemblies.ts by scripts/generate-pg-schema.ts (npm run db:generate:pg-schema,
// which npm run db:generate runs first): do not edit. Change the SQLite table and run npm run db:generate
// (docs/decisions/0074-one-definition-per-table-and-query.md).
import { index, integer, json, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { companies } from './companies'
import { users } from './users'

export const generalAssemblies = pgTable(
  'general_assemblies',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    heldAt: text('held_at').notNull(),
    place: text('place').notNull(),
    agenda: json('agenda').notNull(),
    proposalDeadline: text('proposal_deadline').notNull(),
    noticeAt: text('notice_at').notNull(),
    reminderDays: json('reminder_days').notNull(),
    status: text('status', { enum: ['PLANNED', 'HELD', 'CANCELLED'] })
      .notNull()
      .default('PLANNED'),
    createdByUserId: text('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('general_assemblies_company_held').on(t.companyId, t.heldAt, t.id)],
)

export const assemblyProposals = pgTable(
  'assembly_proposals',
  {
    id: text('id').primaryKey(),
    assemblyId: text('assembly_id')
      .notNull()
      .references(() => generalAssemblies.id, { onDelete: 'cascade' }),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    authorUserId: text('author_user_id').references(() => users.id, { onDelete: 'set null' }),
    authorName: text('author_name').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    status: text('status', { enum: ['SUBMITTED', 'WITHDRAWN'] })
      .notNull()
      .default('SUBMITTED'),
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('assembly_proposals_assembly').on(t.assemblyId, t.createdAt, t.id), index('assembly_proposals_company').on(t.companyId)],
)

export const sendouts = pgTable(
  'sendouts',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['ASSEMBLY_NOTICE', 'ASSEMBLY_REMINDER', 'READING_START', 'READING_END'] }).notNull(),
    assemblyId: text('assembly_id').references(() => generalAssemblies.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    dueAt: text('due_at').notNull(),
    sentAt: text('sent_at'),
    recipients: integer('recipients'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('sendouts_company_key').on(t.companyId, t.key), index('sendouts_due').on(t.sentAt, t.dueAt)],
)

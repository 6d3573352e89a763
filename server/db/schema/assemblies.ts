import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { companies } from './companies'
import { users } from './users'

/**
 * General assemblies (generalforsamling, docs/PRODUCT.md "General assembly", decision 0061): when and where, the agenda, the deadline for
 * members' proposals, when the notice goes out and how many days before the meeting reminders
 * follow. Papers and minutes are documents with `assembly_id` (schema/documents.ts).
 */
export const generalAssemblies = sqliteTable(
  'general_assemblies',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    /** UTC instant of the meeting's start. */
    heldAt: text('held_at').notNull(),
    place: text('place').notNull(),
    /** Agenda items in order (plain text each). */
    agenda: text('agenda', { mode: 'json' }).$type<string[]>().notNull(),
    /** UTC instant after which members can no longer submit proposals. */
    proposalDeadline: text('proposal_deadline').notNull(),
    /** UTC instant the notice goes out. */
    noticeAt: text('notice_at').notNull(),
    /** Days before the meeting a reminder goes out, e.g. [14, 2]. */
    reminderDays: text('reminder_days', { mode: 'json' }).$type<number[]>().notNull(),
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

/** A member's proposal for a general assembly, submitted before its deadline. */
export const assemblyProposals = sqliteTable(
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
    /** The author's name at the time, kept when the user is deleted. */
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

/**
 * Scheduled sendouts to an association's members: a general assembly's notice and reminders, and
 * the water/heat reading reminders at the start and end of the heating-and-water period. `key`
 * names the occasion (e.g. `assembly:<id>:notice`, `reading:start:2027`) so each goes out once.
 * The job sends a row whose `due_at` has come and sets `sent_at` in the same transaction.
 */
export const sendouts = sqliteTable(
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
    /** How many members it went to (set when sent). */
    recipients: integer('recipients'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('sendouts_company_key').on(t.companyId, t.key), index('sendouts_due').on(t.sentAt, t.dueAt)],
)

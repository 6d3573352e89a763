// The PostgreSQL twin of server/db/schema/documents.ts: the same tables, columns, indexes and constraints
// (server/db/schema-parity.test.ts); the column types per docs/decisions/0054-postgresql-schema-beside-sqlite.md.
import { index, integer, json, pgTable, text } from 'drizzle-orm/pg-core'
import { generalAssemblies } from './assemblies'
import { companies } from './companies'
import { users } from './users'

/**
 * The association's documents (docs/PRODUCT.md "Documents"): bylaws, minutes, budgets,
 * house rules. The bytes live on disk under `<data dir>/documents/<id>/<file_id>`; a replaced file
 * gets a new `file_id`, so a copy cached offline under the old one is never mistaken for the new.
 *
 * `audience` says who may read it: every member of the association, the board (every staff
 * role), or the administrative staff only. A document may belong to a general assembly (its
 * agenda papers, its minutes).
 */
export const documents = pgTable(
  'documents',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    category: text('category', { enum: ['BYLAWS', 'MINUTES', 'BUDGET', 'ANNUAL_REPORT', 'HOUSE_RULES', 'OTHER'] }).notNull(),
    audience: text('audience', { enum: ['MEMBERS', 'BOARD', 'STAFF'] }).notNull(),
    assemblyId: text('assembly_id').references(() => generalAssemblies.id, { onDelete: 'set null' }),
    fileId: text('file_id').notNull(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    uploadedByUserId: text('uploaded_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    version: integer('version').notNull().default(1),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    // The list's order (newest first) within a company, and sync's pages by id.
    index('documents_company_created').on(t.companyId, t.createdAt, t.id),
    index('documents_assembly').on(t.assemblyId),
  ],
)

/**
 * Who uploaded and changed what (the documents' audit trail). Kept when the document is deleted:
 * `document_id` is not a foreign key, and the title is copied.
 */
export const documentEvents = pgTable(
  'document_events',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    documentId: text('document_id').notNull(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The name of the user at the time, kept when the user is deleted. */
    userName: text('user_name').notNull(),
    action: text('action', { enum: ['UPLOADED', 'EDITED', 'REPLACED', 'DELETED'] }).notNull(),
    title: text('title').notNull(),
    /** The fields changed, `{field: [before, after]}`, or the file's name on upload/replace. */
    details: json('details').$type<Record<string, unknown>>(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('document_events_company_created').on(t.companyId, t.createdAt, t.id), index('document_events_document').on(t.documentId)],
)

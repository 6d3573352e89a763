// GENERATED from server/db/schema/documents.ts by scripts/generate-pg-schema.ts (npm run db:generate:pg-schema,
// which npm run db:generate runs first): do not edit. Change the SQLite table and run npm run db:generate
// (docs/decisions/0074-one-definition-per-table-and-query.md).
import { index, integer, json, pgTable, text } from 'drizzle-orm/pg-core'
import { generalAssemblies } from './assemblies'
import { companies } from './companies'
import { users } from './users'

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
  (t) => [index('documents_company_created').on(t.companyId, t.createdAt, t.id), index('documents_assembly').on(t.assemblyId)],
)

export const documentEvents = pgTable(
  'document_events',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    documentId: text('document_id').notNull(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    userName: text('user_name').notNull(),
    action: text('action', { enum: ['UPLOADED', 'EDITED', 'REPLACED', 'DELETED'] }).notNull(),
    title: text('title').notNull(),
    details: json('details'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('document_events_company_created').on(t.companyId, t.createdAt, t.id), index('document_events_document').on(t.documentId)],
)

CREATE TABLE "assembly_proposals" (
	"id" text PRIMARY KEY NOT NULL,
	"assembly_id" text NOT NULL,
	"company_id" text NOT NULL,
	"author_user_id" text,
	"author_name" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'SUBMITTED' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "general_assemblies" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"title" text NOT NULL,
	"held_at" text NOT NULL,
	"place" text NOT NULL,
	"agenda" json NOT NULL,
	"proposal_deadline" text NOT NULL,
	"notice_at" text NOT NULL,
	"reminder_days" json NOT NULL,
	"status" text DEFAULT 'PLANNED' NOT NULL,
	"created_by_user_id" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sendouts" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"kind" text NOT NULL,
	"assembly_id" text,
	"key" text NOT NULL,
	"due_at" text NOT NULL,
	"sent_at" text,
	"recipients" integer,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_events" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"document_id" text NOT NULL,
	"user_id" text,
	"user_name" text NOT NULL,
	"action" text NOT NULL,
	"title" text NOT NULL,
	"details" json,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"title" text NOT NULL,
	"category" text NOT NULL,
	"audience" text NOT NULL,
	"assembly_id" text,
	"file_id" text NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"uploaded_by_user_id" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "assembly_proposals" ADD CONSTRAINT "assembly_proposals_assembly_id_general_assemblies_id_fk" FOREIGN KEY ("assembly_id") REFERENCES "public"."general_assemblies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assembly_proposals" ADD CONSTRAINT "assembly_proposals_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assembly_proposals" ADD CONSTRAINT "assembly_proposals_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "general_assemblies" ADD CONSTRAINT "general_assemblies_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "general_assemblies" ADD CONSTRAINT "general_assemblies_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sendouts" ADD CONSTRAINT "sendouts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sendouts" ADD CONSTRAINT "sendouts_assembly_id_general_assemblies_id_fk" FOREIGN KEY ("assembly_id") REFERENCES "public"."general_assemblies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_events" ADD CONSTRAINT "document_events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_events" ADD CONSTRAINT "document_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_assembly_id_general_assemblies_id_fk" FOREIGN KEY ("assembly_id") REFERENCES "public"."general_assemblies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_uploaded_by_user_id_users_id_fk" FOREIGN KEY ("uploaded_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assembly_proposals_assembly" ON "assembly_proposals" USING btree ("assembly_id","created_at","id");--> statement-breakpoint
CREATE INDEX "assembly_proposals_company" ON "assembly_proposals" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "general_assemblies_company_held" ON "general_assemblies" USING btree ("company_id","held_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "sendouts_company_key" ON "sendouts" USING btree ("company_id","key");--> statement-breakpoint
CREATE INDEX "sendouts_due" ON "sendouts" USING btree ("sent_at","due_at");--> statement-breakpoint
CREATE INDEX "document_events_company_created" ON "document_events" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "document_events_document" ON "document_events" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "documents_company_created" ON "documents" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "documents_assembly" ON "documents" USING btree ("assembly_id");
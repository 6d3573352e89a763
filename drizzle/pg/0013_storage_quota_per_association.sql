-- A storage quota per association (decision 0082): the super admin's own quota of an association; without a row, STORAGE_QUOTA_MB.
CREATE TABLE "storage_quotas" (
	"company_id" text PRIMARY KEY NOT NULL,
	"quota_bytes" bigint NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "storage_quotas" ADD CONSTRAINT "storage_quotas_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;
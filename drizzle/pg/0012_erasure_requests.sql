-- Erasure only on request (decision 0080), as SQLite's migration 0026.
CREATE TABLE "personal_data_erasure_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"user_id" text NOT NULL,
	"channel" text NOT NULL,
	"requested_on" text NOT NULL,
	"recorded_by_user_id" text NOT NULL,
	"recorded_at" text NOT NULL,
	"status" text NOT NULL,
	"decided_by_user_id" text,
	"decided_at" text,
	"decision_note" text,
	"erasure_id" text
);
--> statement-breakpoint
CREATE INDEX "personal_data_erasure_requests_company" ON "personal_data_erasure_requests" USING btree ("company_id","recorded_at");--> statement-breakpoint
CREATE INDEX "personal_data_erasure_requests_user" ON "personal_data_erasure_requests" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "personal_data_erasure_requests_pending" ON "personal_data_erasure_requests" USING btree ("company_id","user_id") WHERE status = 'PENDING';
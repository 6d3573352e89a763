-- Yearly statements once the year has ended (decision 0081), as SQLite's migration 0026:
-- interim statements during the year, resends, and the mail each recipient was told by.
DROP INDEX "statement_sendouts_company_year";--> statement-breakpoint
ALTER TABLE "statement_sendout_recipients" ADD COLUMN "mail_id" text;--> statement-breakpoint
ALTER TABLE "statement_sendouts" ADD COLUMN "kind" text DEFAULT 'YEARLY' NOT NULL;--> statement-breakpoint
ALTER TABLE "statement_sendouts" ADD COLUMN "through" text;--> statement-breakpoint
ALTER TABLE "statement_sendouts" ADD COLUMN "resend_of_id" text;--> statement-breakpoint
ALTER TABLE "statement_sendouts" ADD COLUMN "resend_to_user_id" text;--> statement-breakpoint
-- A sendout queued before its year ended (Copenhagen) was an interim statement up to that day.
UPDATE "statement_sendouts" SET "kind" = 'INTERIM',
  "through" = to_char(("requested_at"::timestamptz AT TIME ZONE 'Europe/Copenhagen')::date, 'YYYY-MM-DD')
WHERE ("requested_at"::timestamptz AT TIME ZONE 'Europe/Copenhagen')::date <= make_date("year", 12, 31);--> statement-breakpoint
CREATE UNIQUE INDEX "statement_sendouts_yearly_once" ON "statement_sendouts" USING btree ("company_id","year") WHERE kind = 'YEARLY' AND resend_of_id IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "statement_sendouts_interim_once_a_day" ON "statement_sendouts" USING btree ("company_id","year","through") WHERE kind = 'INTERIM' AND resend_of_id IS NULL;--> statement-breakpoint
CREATE INDEX "statement_sendouts_resends" ON "statement_sendouts" USING btree ("resend_of_id");
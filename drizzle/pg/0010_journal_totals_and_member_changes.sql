DROP INDEX "invoices_company_executed_paid";--> statement-breakpoint
ALTER TABLE "change_log" ADD COLUMN "audience" text;--> statement-breakpoint
CREATE INDEX "invoices_company_executed_split" ON "invoices" USING btree ("company_id","payment_date") WHERE status = 'EXECUTED' AND (kind = 'CREDIT_NOTE' OR vat_rate <> 0);--> statement-breakpoint
CREATE INDEX "invoices_company_executed_undated" ON "invoices" USING btree ("company_id","issue_date") WHERE status = 'EXECUTED' AND payment_date IS NULL;--> statement-breakpoint
CREATE INDEX "change_log_members_seq" ON "change_log" USING btree ("company_id","seq") WHERE audience = 'MEMBERS';--> statement-breakpoint
CREATE INDEX "invoices_company_executed_paid" ON "invoices" USING btree ("company_id","payment_date","number","kind","id") WHERE status = 'EXECUTED';
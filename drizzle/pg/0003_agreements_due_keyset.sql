DROP INDEX "agreements_status_next";--> statement-breakpoint
CREATE INDEX "agreements_status_next" ON "agreements" USING btree ("status","next_regular_payment_date","id");
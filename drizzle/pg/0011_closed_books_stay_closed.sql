-- Closed books stay closed (decision 0079), as SQLite's migration 0025:
-- 1. Export marks per file format; existing marks take the format of the export that made them.
ALTER TABLE "bookkeeping_export_marks" ADD COLUMN "format" text DEFAULT 'CSV' NOT NULL;--> statement-breakpoint
UPDATE "bookkeeping_export_marks" m SET "format" = e."format" FROM "bookkeeping_exports" e WHERE e."id" = m."export_id";--> statement-breakpoint
ALTER TABLE "bookkeeping_export_marks" DROP CONSTRAINT "bookkeeping_export_marks_company_id_invoice_id_event_pk";--> statement-breakpoint
ALTER TABLE "bookkeeping_export_marks" ADD CONSTRAINT "bookkeeping_export_marks_company_id_invoice_id_event_format_pk" PRIMARY KEY("company_id","invoice_id","event","format");--> statement-breakpoint
-- 2. The account plan a closed month is shown and exported with (a month closed before: the plan of today; null: the defaults).
ALTER TABLE "bookkeeping_closed_months" ADD COLUMN "account_plan" text;--> statement-breakpoint
DROP TRIGGER bookkeeping_closed_months_kept_update ON bookkeeping_closed_months;--> statement-breakpoint
UPDATE bookkeeping_closed_months c SET account_plan = p.plan FROM bookkeeping_account_plans p WHERE p.company_id = c.company_id;--> statement-breakpoint
CREATE TRIGGER bookkeeping_closed_months_kept_update BEFORE UPDATE ON bookkeeping_closed_months
FOR EACH ROW EXECUTE FUNCTION bookkeeping_closed_months_kept();
--> statement-breakpoint
-- 3. The closed period is every month up to and including the company's latest closed month, gaps
--    included: a date is closed when some closed month is the same or later.
CREATE OR REPLACE FUNCTION bookkeeping_month_closed(p_company_id text, p_dates text[]) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM bookkeeping_closed_months c WHERE c.company_id = p_company_id
    AND c.month >= (SELECT min(substr(d, 1, 7)) FROM unnest(p_dates) AS d WHERE d IS NOT NULL))
$$;

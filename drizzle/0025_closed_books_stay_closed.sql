-- Closed books stay closed (decision 0079, docs/BOOKKEEPING.md "Closed months"):
-- 1. Export marks per file format: "only new" of the CSV and of the xlsx each hold every entry once.
--    Existing marks take the format of the export that made them.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_bookkeeping_export_marks` (
	`company_id` text NOT NULL,
	`invoice_id` text NOT NULL,
	`event` text NOT NULL,
	`format` text DEFAULT 'CSV' NOT NULL,
	`export_id` text NOT NULL,
	`exported_at` text NOT NULL,
	PRIMARY KEY(`company_id`, `invoice_id`, `event`, `format`)
);
--> statement-breakpoint
INSERT INTO `__new_bookkeeping_export_marks`("company_id", "invoice_id", "event", "format", "export_id", "exported_at")
SELECT m."company_id", m."invoice_id", m."event", COALESCE((SELECT e."format" FROM `bookkeeping_exports` e WHERE e."id" = m."export_id"), 'CSV'), m."export_id", m."exported_at"
FROM `bookkeeping_export_marks` m;--> statement-breakpoint
DROP TABLE `bookkeeping_export_marks`;--> statement-breakpoint
ALTER TABLE `__new_bookkeeping_export_marks` RENAME TO `bookkeeping_export_marks`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `bookkeeping_export_marks_export` ON `bookkeeping_export_marks` (`export_id`);--> statement-breakpoint
-- 2. The account plan a closed month is shown and exported with. A month closed before this migration
--    keeps the plan of today (the best known); null (no plan of its own) means the defaults.
ALTER TABLE `bookkeeping_closed_months` ADD `account_plan` text;--> statement-breakpoint
DROP TRIGGER bookkeeping_closed_months_kept_update;--> statement-breakpoint
UPDATE bookkeeping_closed_months SET account_plan = (SELECT p.plan FROM bookkeeping_account_plans p WHERE p.company_id = bookkeeping_closed_months.company_id);--> statement-breakpoint
CREATE TRIGGER bookkeeping_closed_months_kept_update BEFORE UPDATE ON bookkeeping_closed_months
BEGIN
  SELECT RAISE(ABORT, 'bookkeeping: a closed month stays closed');
END;
--> statement-breakpoint
-- 3. The closed period is every month up to and including the company's latest closed month, gaps
--    included: a date is closed when some closed month is the same or later (the triggers of 0023,
--    with `>=` for `=`).
DROP TRIGGER invoices_closed_month_insert;--> statement-breakpoint
DROP TRIGGER invoices_closed_month_update;--> statement-breakpoint
DROP TRIGGER invoice_lines_closed_month_insert;--> statement-breakpoint
DROP TRIGGER invoice_lines_closed_month_update;--> statement-breakpoint
DROP TRIGGER invoice_lines_closed_month_delete;--> statement-breakpoint
CREATE TRIGGER invoices_closed_month_insert BEFORE INSERT ON invoices
WHEN EXISTS (SELECT 1 FROM bookkeeping_closed_months c WHERE c.company_id = new.company_id AND c.month >= substr(new.issue_date, 1, 7))
BEGIN
  SELECT RAISE(ABORT, 'bookkeeping: the month is closed');
END;
--> statement-breakpoint
CREATE TRIGGER invoices_closed_month_update BEFORE UPDATE ON invoices
WHEN (new.status IS NOT old.status OR new.payment_status IS NOT old.payment_status OR new.payment_type IS NOT old.payment_type
      OR new.payment_date IS NOT old.payment_date OR new.settlement IS NOT old.settlement OR new.settled_on IS NOT old.settled_on
      OR new.settlement_note IS NOT old.settlement_note OR new.settled_by_user_id IS NOT old.settled_by_user_id
      OR new.settled_by_name IS NOT old.settled_by_name OR new.subtotal_ore IS NOT old.subtotal_ore OR new.vat_ore IS NOT old.vat_ore
      OR new.total_ore IS NOT old.total_ore OR new.vat_rate IS NOT old.vat_rate OR new.issue_date IS NOT old.issue_date
      OR new.kind IS NOT old.kind OR new.number IS NOT old.number OR new.company_id IS NOT old.company_id)
  AND EXISTS (SELECT 1 FROM bookkeeping_closed_months c WHERE c.company_id = old.company_id
      AND (c.month >= substr(old.payment_date, 1, 7) OR c.month >= substr(old.settled_on, 1, 7)
        OR c.month >= substr(new.payment_date, 1, 7) OR c.month >= substr(new.settled_on, 1, 7)))
BEGIN
  SELECT RAISE(ABORT, 'bookkeeping: the month is closed');
END;
--> statement-breakpoint
CREATE TRIGGER invoice_lines_closed_month_insert BEFORE INSERT ON invoice_lines
WHEN EXISTS (SELECT 1 FROM invoices i JOIN bookkeeping_closed_months c ON c.company_id = i.company_id
      AND (c.month >= substr(i.issue_date, 1, 7) OR c.month >= substr(i.payment_date, 1, 7) OR c.month >= substr(i.settled_on, 1, 7)) WHERE i.id = new.invoice_id)
BEGIN
  SELECT RAISE(ABORT, 'bookkeeping: the month is closed');
END;
--> statement-breakpoint
CREATE TRIGGER invoice_lines_closed_month_update BEFORE UPDATE ON invoice_lines
WHEN EXISTS (SELECT 1 FROM invoices i JOIN bookkeeping_closed_months c ON c.company_id = i.company_id
      AND (c.month >= substr(i.payment_date, 1, 7) OR c.month >= substr(i.settled_on, 1, 7)) WHERE i.id IN (old.invoice_id, new.invoice_id))
BEGIN
  SELECT RAISE(ABORT, 'bookkeeping: the month is closed');
END;
--> statement-breakpoint
CREATE TRIGGER invoice_lines_closed_month_delete BEFORE DELETE ON invoice_lines
WHEN EXISTS (SELECT 1 FROM invoices i JOIN bookkeeping_closed_months c ON c.company_id = i.company_id
      AND (c.month >= substr(i.payment_date, 1, 7) OR c.month >= substr(i.settled_on, 1, 7)) WHERE i.id = old.invoice_id)
BEGIN
  SELECT RAISE(ABORT, 'bookkeeping: the month is closed');
END;

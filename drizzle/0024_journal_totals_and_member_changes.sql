DROP INDEX `invoices_company_executed_paid`;--> statement-breakpoint
CREATE INDEX `invoices_company_executed_split` ON `invoices` (`company_id`,`payment_date`) WHERE status = 'EXECUTED' AND (kind = 'CREDIT_NOTE' OR vat_rate <> 0);--> statement-breakpoint
CREATE INDEX `invoices_company_executed_undated` ON `invoices` (`company_id`,`issue_date`) WHERE status = 'EXECUTED' AND payment_date IS NULL;--> statement-breakpoint
CREATE INDEX `invoices_company_executed_paid` ON `invoices` (`company_id`,`payment_date`,`number`,`kind`,`id`) WHERE status = 'EXECUTED';--> statement-breakpoint
ALTER TABLE `change_log` ADD `audience` text;--> statement-breakpoint
CREATE INDEX `change_log_members_seq` ON `change_log` (`company_id`,`seq`) WHERE audience = 'MEMBERS';
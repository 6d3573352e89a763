ALTER TABLE `invoice_lines` ADD `credited_position` integer;--> statement-breakpoint
ALTER TABLE `invoices` ADD `settlement` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `settled_on` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `settlement_note` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `settled_by_user_id` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `settled_by_name` text;--> statement-breakpoint
CREATE INDEX `invoices_credited` ON `invoices` (`credited_invoice_id`);--> statement-breakpoint
CREATE INDEX `invoices_company_open_due` ON `invoices` (`company_id`,`due_date`,`id`) WHERE kind = 'INVOICE' AND settlement IS NULL AND status IN ('CREATED', 'RESERVED', 'FAILED');
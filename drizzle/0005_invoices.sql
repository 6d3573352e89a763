CREATE TABLE `invoice_counters` (
	`company_id` text PRIMARY KEY NOT NULL,
	`last_number` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `invoice_lines` (
	`invoice_id` text NOT NULL,
	`position` integer NOT NULL,
	`id` text NOT NULL,
	`article_number` text NOT NULL,
	`type` text NOT NULL,
	`description` text NOT NULL,
	`quantity` integer NOT NULL,
	`unit` text NOT NULL,
	`price_per_unit_ore` integer NOT NULL,
	`vat_rate` integer NOT NULL,
	`vat_ore` integer NOT NULL,
	`total_incl_vat_ore` integer NOT NULL,
	PRIMARY KEY(`invoice_id`, `position`),
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `invoices` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`kind` text NOT NULL,
	`number` integer NOT NULL,
	`agreement_id` text NOT NULL,
	`charge_id` text NOT NULL,
	`member_user_id` text NOT NULL,
	`credited_invoice_id` text,
	`refund_id` text,
	`issue_date` text NOT NULL,
	`due_date` text NOT NULL,
	`status` text DEFAULT 'CREATED' NOT NULL,
	`description` text NOT NULL,
	`company_name` text NOT NULL,
	`company_cvr` text NOT NULL,
	`company_address` text,
	`consumer_name` text NOT NULL,
	`consumer_address` text,
	`consumer_phone_number` text,
	`consumer_email_address` text NOT NULL,
	`currency` text DEFAULT 'DKK' NOT NULL,
	`subtotal_ore` integer NOT NULL,
	`vat_ore` integer NOT NULL,
	`total_ore` integer NOT NULL,
	`vat_rate` integer NOT NULL,
	`payment_status` text,
	`payment_type` text,
	`payment_date` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_company_number` ON `invoices` (`company_id`,`number`);--> statement-breakpoint
CREATE INDEX `invoices_company_issue` ON `invoices` (`company_id`,`issue_date`);--> statement-breakpoint
CREATE INDEX `invoices_member` ON `invoices` (`member_user_id`);--> statement-breakpoint
CREATE INDEX `invoices_charge` ON `invoices` (`charge_id`);--> statement-breakpoint
ALTER TABLE `agreements` ADD `debt_collection_since` text;--> statement-breakpoint
CREATE INDEX `agreements_status_next` ON `agreements` (`status`,`next_regular_payment_date`);--> statement-breakpoint
ALTER TABLE `charges` ADD `failed_on` text;--> statement-breakpoint
ALTER TABLE `charges` ADD `overdue_step` integer DEFAULT 0 NOT NULL;
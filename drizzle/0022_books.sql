CREATE TABLE `bookkeeping_account_plans` (
	`company_id` text PRIMARY KEY NOT NULL,
	`plan` text NOT NULL,
	`version` integer NOT NULL,
	`updated_at` text NOT NULL,
	`updated_by_name` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `bookkeeping_closed_months` (
	`company_id` text NOT NULL,
	`month` text NOT NULL,
	`closed_at` text NOT NULL,
	`closed_by_user_id` text,
	`closed_by_name` text NOT NULL,
	PRIMARY KEY(`company_id`, `month`)
);
--> statement-breakpoint
CREATE TABLE `bookkeeping_export_marks` (
	`company_id` text NOT NULL,
	`invoice_id` text NOT NULL,
	`event` text NOT NULL,
	`export_id` text NOT NULL,
	`exported_at` text NOT NULL,
	PRIMARY KEY(`company_id`, `invoice_id`, `event`)
);
--> statement-breakpoint
CREATE INDEX `bookkeeping_export_marks_export` ON `bookkeeping_export_marks` (`export_id`);--> statement-breakpoint
CREATE TABLE `bookkeeping_exports` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`from_date` text NOT NULL,
	`to_date` text NOT NULL,
	`format` text NOT NULL,
	`only_new` integer NOT NULL,
	`entries` integer NOT NULL,
	`exported_at` text NOT NULL,
	`exported_by_user_id` text,
	`exported_by_name` text NOT NULL,
	`account_plan` text
);
--> statement-breakpoint
CREATE INDEX `bookkeeping_exports_company` ON `bookkeeping_exports` (`company_id`,`exported_at`,`id`);--> statement-breakpoint
CREATE TABLE `personal_data_erasures` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`user_id` text NOT NULL,
	`reason` text NOT NULL,
	`requested_on` text NOT NULL,
	`erased_at` text NOT NULL,
	`erased_by_user_id` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `personal_data_erasures_company` ON `personal_data_erasures` (`company_id`,`erased_at`);--> statement-breakpoint
CREATE INDEX `personal_data_erasures_user` ON `personal_data_erasures` (`user_id`);--> statement-breakpoint
CREATE TABLE `statement_sendout_recipients` (
	`sendout_id` text NOT NULL,
	`user_id` text NOT NULL,
	`sent_at` text,
	PRIMARY KEY(`sendout_id`, `user_id`),
	FOREIGN KEY (`sendout_id`) REFERENCES `statement_sendouts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `statement_sendout_recipients_unsent` ON `statement_sendout_recipients` (`sendout_id`,`sent_at`);--> statement-breakpoint
CREATE TABLE `statement_sendouts` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`year` integer NOT NULL,
	`requested_by_user_id` text,
	`requested_by_name` text NOT NULL,
	`requested_at` text NOT NULL,
	`sent_at` text,
	`recipients` integer,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `statement_sendouts_company_year` ON `statement_sendouts` (`company_id`,`year`);--> statement-breakpoint
CREATE INDEX `statement_sendouts_queued` ON `statement_sendouts` (`sent_at`,`requested_at`);--> statement-breakpoint
CREATE INDEX `invoices_company_executed_paid` ON `invoices` (`company_id`,`payment_date`,`number`) WHERE status = 'EXECUTED';--> statement-breakpoint
CREATE INDEX `invoices_company_paid_outside` ON `invoices` (`company_id`,`settled_on`,`number`) WHERE settlement = 'PAID_OUTSIDE';
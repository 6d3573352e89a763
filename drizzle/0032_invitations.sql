CREATE TABLE `invitation_sends` (
	`company_id` text NOT NULL,
	`user_id` text NOT NULL,
	`round` integer NOT NULL,
	`queued_at` text NOT NULL,
	`queued_by_name` text,
	`sent_at` text,
	`mail_id` text,
	`skipped` text,
	PRIMARY KEY(`company_id`, `user_id`, `round`),
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `invitation_sends_queued` ON `invitation_sends` (`sent_at`,`queued_at`);--> statement-breakpoint
CREATE INDEX `invitation_sends_company` ON `invitation_sends` (`company_id`,`sent_at`);--> statement-breakpoint
CREATE TABLE `invitation_settings` (
	`company_id` text PRIMARY KEY NOT NULL,
	`reminders_on` integer DEFAULT true NOT NULL,
	`remind_after_days` integer DEFAULT 7 NOT NULL,
	`max_reminders` integer DEFAULT 2 NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `mail_bounces` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`kind` text NOT NULL,
	`reason` text,
	`mail_id` text,
	`bounced_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mail_bounces_email` ON `mail_bounces` (`email`);
CREATE TABLE `assembly_proposals` (
	`id` text PRIMARY KEY NOT NULL,
	`assembly_id` text NOT NULL,
	`company_id` text NOT NULL,
	`author_user_id` text,
	`author_name` text NOT NULL,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`status` text DEFAULT 'SUBMITTED' NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`assembly_id`) REFERENCES `general_assemblies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `assembly_proposals_assembly` ON `assembly_proposals` (`assembly_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `assembly_proposals_company` ON `assembly_proposals` (`company_id`);--> statement-breakpoint
CREATE TABLE `general_assemblies` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`title` text NOT NULL,
	`held_at` text NOT NULL,
	`place` text NOT NULL,
	`agenda` text NOT NULL,
	`proposal_deadline` text NOT NULL,
	`notice_at` text NOT NULL,
	`reminder_days` text NOT NULL,
	`status` text DEFAULT 'PLANNED' NOT NULL,
	`created_by_user_id` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `general_assemblies_company_held` ON `general_assemblies` (`company_id`,`held_at`,`id`);--> statement-breakpoint
CREATE TABLE `sendouts` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`kind` text NOT NULL,
	`assembly_id` text,
	`key` text NOT NULL,
	`due_at` text NOT NULL,
	`sent_at` text,
	`recipients` integer,
	`created_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`assembly_id`) REFERENCES `general_assemblies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sendouts_company_key` ON `sendouts` (`company_id`,`key`);--> statement-breakpoint
CREATE INDEX `sendouts_due` ON `sendouts` (`sent_at`,`due_at`);--> statement-breakpoint
CREATE TABLE `document_events` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`document_id` text NOT NULL,
	`user_id` text,
	`user_name` text NOT NULL,
	`action` text NOT NULL,
	`title` text NOT NULL,
	`details` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `document_events_company_created` ON `document_events` (`company_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `document_events_document` ON `document_events` (`document_id`);--> statement-breakpoint
CREATE TABLE `documents` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`title` text NOT NULL,
	`category` text NOT NULL,
	`audience` text NOT NULL,
	`assembly_id` text,
	`file_id` text NOT NULL,
	`file_name` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`sha256` text NOT NULL,
	`uploaded_by_user_id` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`assembly_id`) REFERENCES `general_assemblies`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`uploaded_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `documents_company_created` ON `documents` (`company_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `documents_assembly` ON `documents` (`assembly_id`);
CREATE TABLE `forum_follows` (
	`thread_id` text NOT NULL,
	`user_id` text NOT NULL,
	`following` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`thread_id`, `user_id`),
	FOREIGN KEY (`thread_id`) REFERENCES `forum_threads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `forum_follows_user` ON `forum_follows` (`user_id`);--> statement-breakpoint
CREATE TABLE `forum_moderation_events` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`thread_id` text NOT NULL,
	`post_id` text,
	`actor_user_id` text,
	`actor_name` text NOT NULL,
	`action` text NOT NULL,
	`reason` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`thread_id`) REFERENCES `forum_threads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `forum_moderation_events_thread` ON `forum_moderation_events` (`thread_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `forum_moderation_events_company` ON `forum_moderation_events` (`company_id`);--> statement-breakpoint
CREATE TABLE `forum_posts` (
	`id` text PRIMARY KEY NOT NULL,
	`thread_id` text NOT NULL,
	`company_id` text NOT NULL,
	`author_user_id` text,
	`author_name` text NOT NULL,
	`opening` integer DEFAULT 0 NOT NULL,
	`body` text NOT NULL,
	`edited_at` text,
	`deleted_at` text,
	`hidden_at` text,
	`hidden_by_name` text,
	`hidden_reason` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`thread_id`) REFERENCES `forum_threads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `forum_posts_thread_created` ON `forum_posts` (`thread_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `forum_posts_company` ON `forum_posts` (`company_id`);--> statement-breakpoint
CREATE INDEX `forum_posts_author_created` ON `forum_posts` (`author_user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `forum_reports` (
	`id` text PRIMARY KEY NOT NULL,
	`post_id` text NOT NULL,
	`thread_id` text NOT NULL,
	`company_id` text NOT NULL,
	`reporter_user_id` text,
	`reporter_name` text NOT NULL,
	`reason` text NOT NULL,
	`created_at` text NOT NULL,
	`resolved_at` text,
	`resolved_by_name` text,
	FOREIGN KEY (`post_id`) REFERENCES `forum_posts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`thread_id`) REFERENCES `forum_threads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`reporter_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `forum_reports_post_reporter` ON `forum_reports` (`post_id`,`reporter_user_id`);--> statement-breakpoint
CREATE INDEX `forum_reports_company_open` ON `forum_reports` (`company_id`,`resolved_at`,`created_at`);--> statement-breakpoint
CREATE INDEX `forum_reports_thread` ON `forum_reports` (`thread_id`);--> statement-breakpoint
CREATE TABLE `forum_threads` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`author_user_id` text,
	`author_name` text NOT NULL,
	`title` text NOT NULL,
	`pinned` integer DEFAULT 0 NOT NULL,
	`locked_at` text,
	`locked_by_name` text,
	`hidden_at` text,
	`hidden_by_name` text,
	`hidden_reason` text,
	`reply_count` integer DEFAULT 0 NOT NULL,
	`last_activity_at` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `forum_threads_company_list` ON `forum_threads` (`company_id`,`pinned`,`last_activity_at`,`id`);--> statement-breakpoint
CREATE TABLE `article_attachments` (
	`id` text PRIMARY KEY NOT NULL,
	`article_id` text NOT NULL,
	`file_name` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`sha256` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`article_id`) REFERENCES `articles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `article_attachments_article` ON `article_attachments` (`article_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `articles` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text,
	`language` text NOT NULL,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`body_text` text NOT NULL,
	`tags` text DEFAULT '' NOT NULL,
	`author_user_id` text,
	`author_name` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `articles_company_created` ON `articles` (`company_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `articles_author` ON `articles` (`author_user_id`);--> statement-breakpoint
CREATE TABLE `specialists` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`company_name` text,
	`phone` text,
	`email` text,
	`website` text,
	`address` text,
	`notes` text DEFAULT '' NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `specialists_company_kind` ON `specialists` (`company_id`,`kind`,`name`);--> statement-breakpoint
CREATE TABLE `lending_items` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`lender_kind` text NOT NULL,
	`lender_user_id` text,
	`lender_name` text NOT NULL,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`rules` text DEFAULT '' NOT NULL,
	`location` text DEFAULT '' NOT NULL,
	`deposit_ore` integer,
	`photo_id` text,
	`photo_content_type` text,
	`photo_size` integer,
	`archived_at` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`lender_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `lending_items_company_created` ON `lending_items` (`company_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `lending_items_lender` ON `lending_items` (`lender_user_id`);--> statement-breakpoint
CREATE TABLE `loan_reminders` (
	`id` text PRIMARY KEY NOT NULL,
	`loan_id` text NOT NULL,
	`kind` text NOT NULL,
	`due_at` text NOT NULL,
	`sent_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`loan_id`) REFERENCES `loans`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `loan_reminders_loan_kind` ON `loan_reminders` (`loan_id`,`kind`);--> statement-breakpoint
CREATE INDEX `loan_reminders_due` ON `loan_reminders` (`sent_at`,`due_at`);--> statement-breakpoint
CREATE TABLE `loans` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`item_id` text NOT NULL,
	`borrower_user_id` text,
	`borrower_name` text NOT NULL,
	`lender_user_id` text,
	`from_date` text NOT NULL,
	`to_date` text NOT NULL,
	`message` text DEFAULT '' NOT NULL,
	`status` text NOT NULL,
	`condition_out` text DEFAULT '' NOT NULL,
	`handover_condition` text,
	`condition_back` text,
	`deposit_ore` integer,
	`lender_confirmed_at` text,
	`lender_confirmed_by` text,
	`borrower_confirmed_at` text,
	`handed_over_at` text,
	`returned_at` text,
	`deposit_charge_id` text,
	`deposit_refund_id` text,
	`damage_note` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`item_id`) REFERENCES `lending_items`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`borrower_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`lender_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `loans_item_dates` ON `loans` (`item_id`,`from_date`);--> statement-breakpoint
CREATE INDEX `loans_borrower` ON `loans` (`borrower_user_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `loans_lender` ON `loans` (`lender_user_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `loans_company` ON `loans` (`company_id`,`id`);--> statement-breakpoint
CREATE INDEX `loans_deposit_open` ON `loans` (`deposit_refund_id`,`deposit_charge_id`);--> statement-breakpoint
CREATE INDEX `change_log_user_company_seq` ON `change_log` (`user_id`,`company_id`,`seq`);
CREATE TABLE `message_attachments` (
	`id` text PRIMARY KEY NOT NULL,
	`message_id` text NOT NULL,
	`name` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`sha256` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `message_attachments_message` ON `message_attachments` (`message_id`);--> statement-breakpoint
CREATE TABLE `message_recipients` (
	`id` text PRIMARY KEY NOT NULL,
	`message_id` text NOT NULL,
	`user_id` text NOT NULL,
	`email_address` text NOT NULL,
	`full_name` text NOT NULL,
	`mail_id` text,
	`received_at` text,
	`viewed_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `message_recipients_message_user` ON `message_recipients` (`message_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `message_recipients_user` ON `message_recipients` (`user_id`);--> statement-breakpoint
CREATE INDEX `message_recipients_pending` ON `message_recipients` (`received_at`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`sender_user_id` text,
	`anonymous` integer DEFAULT false NOT NULL,
	`type` text NOT NULL,
	`subject` text NOT NULL,
	`body` text NOT NULL,
	`status` text DEFAULT 'DRAFT' NOT NULL,
	`recipient_kind` text NOT NULL,
	`recipient_user_id` text,
	`recipient_address_id` text,
	`recipient_label` text,
	`send_at` text,
	`sent_at` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`sender_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`recipient_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`recipient_address_id`) REFERENCES `addresses`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `messages_company` ON `messages` (`company_id`,`status`);--> statement-breakpoint
CREATE INDEX `messages_sender` ON `messages` (`sender_user_id`);--> statement-breakpoint
CREATE INDEX `messages_due` ON `messages` (`status`,`send_at`);
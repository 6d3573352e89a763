ALTER TABLE `notifications` ADD `title_source` text;--> statement-breakpoint
ALTER TABLE `notifications` ADD `message_source` text;--> statement-breakpoint
ALTER TABLE `notifications` ADD `action_text_source` text;
CREATE TABLE `email_confirmations` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`purpose` text NOT NULL,
	`email` text NOT NULL,
	`auth_method_id` text,
	`token_hash` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`auth_method_id`) REFERENCES `auth_methods`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `email_confirmations_token_hash` ON `email_confirmations` (`token_hash`);--> statement-breakpoint
CREATE INDEX `email_confirmations_user` ON `email_confirmations` (`user_id`);--> statement-breakpoint
DROP INDEX `auth_methods_type_identifier`;--> statement-breakpoint
ALTER TABLE `auth_methods` ADD `verified_at` text;--> statement-breakpoint
CREATE INDEX `auth_methods_identifier` ON `auth_methods` (`identifier`);--> statement-breakpoint
CREATE UNIQUE INDEX `auth_methods_type_identifier` ON `auth_methods` (`type`,`identifier`) WHERE type <> 'LOGIN_TOKEN' and verified_at is not null;--> statement-breakpoint
ALTER TABLE `oidc_logins` ADD `link_user_id` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `via` text;--> statement-breakpoint
ALTER TABLE `users` ADD `mobile_key` text;--> statement-breakpoint
ALTER TABLE `users` ADD `mobile_verified_at` text;--> statement-breakpoint
CREATE UNIQUE INDEX `users_mobile_key_unique` ON `users` (`mobile_key`);
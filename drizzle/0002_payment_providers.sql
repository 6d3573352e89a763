CREATE TABLE `payment_providers` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`type` text DEFAULT 'VIPPS' NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`is_test` integer DEFAULT true NOT NULL,
	`provider_name` text NOT NULL,
	`merchant_serial_number` text NOT NULL,
	`client_id` text NOT NULL,
	`client_secret_sealed` text NOT NULL,
	`subscription_key_sealed` text NOT NULL,
	`use_test_mode` integer DEFAULT true NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `payment_providers_company` ON `payment_providers` (`company_id`);--> statement-breakpoint
CREATE TABLE `provider_webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`provider_id` text NOT NULL,
	`vipps_webhook_id` text,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`secret_sealed` text,
	`status` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`provider_id`) REFERENCES `payment_providers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `provider_webhooks_provider` ON `provider_webhooks` (`provider_id`);--> statement-breakpoint
CREATE TABLE `webhook_events` (
	`id` text PRIMARY KEY NOT NULL,
	`provider_id` text NOT NULL,
	`body_hash` text NOT NULL,
	`event_type` text NOT NULL,
	`agreement_id` text NOT NULL,
	`charge_id` text,
	`payload` text NOT NULL,
	`status` text DEFAULT 'received' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text NOT NULL,
	`observed_status` text,
	`last_error` text,
	`received_at` text NOT NULL,
	`processed_at` text,
	FOREIGN KEY (`provider_id`) REFERENCES `payment_providers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_events_provider_body` ON `webhook_events` (`provider_id`,`body_hash`);--> statement-breakpoint
CREATE INDEX `webhook_events_status_next` ON `webhook_events` (`status`,`next_attempt_at`);
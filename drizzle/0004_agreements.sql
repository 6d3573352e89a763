CREATE TABLE `agreement_addresses` (
	`agreement_id` text NOT NULL,
	`address_id` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`agreement_id`, `address_id`),
	FOREIGN KEY (`agreement_id`) REFERENCES `agreements`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`address_id`) REFERENCES `addresses`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `agreement_addresses_address` ON `agreement_addresses` (`address_id`);--> statement-breakpoint
CREATE TABLE `agreement_parts` (
	`agreement_id` text NOT NULL,
	`id` text NOT NULL,
	`position` integer NOT NULL,
	`type` text NOT NULL,
	`description` text NOT NULL,
	`price_ore` integer NOT NULL,
	`vat_rate` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`agreement_id`, `id`),
	FOREIGN KEY (`agreement_id`) REFERENCES `agreements`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `agreements` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`external_seq` integer NOT NULL,
	`member_user_id` text NOT NULL,
	`payment_provider_id` text NOT NULL,
	`status` text DEFAULT 'CREATED' NOT NULL,
	`price_ore` integer NOT NULL,
	`currency` text DEFAULT 'DKK' NOT NULL,
	`payment_period` text NOT NULL,
	`start_payment_date` text NOT NULL,
	`next_regular_payment_date` text,
	`termination_date` text,
	`final_payment_required` integer DEFAULT false NOT NULL,
	`vipps_agreement_id` text,
	`vipps_confirmation_url` text,
	`pending_since` text,
	`created_by_user_id` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`member_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`payment_provider_id`) REFERENCES `payment_providers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agreements_company_seq` ON `agreements` (`company_id`,`external_seq`);--> statement-breakpoint
CREATE INDEX `agreements_member` ON `agreements` (`member_user_id`);--> statement-breakpoint
CREATE INDEX `agreements_status` ON `agreements` (`status`);--> statement-breakpoint
CREATE UNIQUE INDEX `agreements_vipps_id` ON `agreements` (`vipps_agreement_id`);--> statement-breakpoint
CREATE TABLE `charge_events` (
	`id` text PRIMARY KEY NOT NULL,
	`charge_id` text NOT NULL,
	`event` text NOT NULL,
	`amount_ore` integer NOT NULL,
	`occurred_at` text NOT NULL,
	`success` integer DEFAULT true NOT NULL,
	`event_key` text NOT NULL,
	FOREIGN KEY (`charge_id`) REFERENCES `charges`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `charge_events_charge_key` ON `charge_events` (`charge_id`,`event_key`);--> statement-breakpoint
CREATE TABLE `charges` (
	`id` text PRIMARY KEY NOT NULL,
	`agreement_id` text NOT NULL,
	`company_id` text NOT NULL,
	`kind` text NOT NULL,
	`type` text NOT NULL,
	`amount_ore` integer NOT NULL,
	`currency` text DEFAULT 'DKK' NOT NULL,
	`description` text NOT NULL,
	`due` text NOT NULL,
	`status` text DEFAULT 'CREATED' NOT NULL,
	`vipps_charge_id` text,
	`vipps_status` text,
	`captured_ore` integer DEFAULT 0 NOT NULL,
	`refunded_ore` integer DEFAULT 0 NOT NULL,
	`failure_reason` text,
	`invoice_id` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`agreement_id`) REFERENCES `agreements`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `charges_agreement` ON `charges` (`agreement_id`,`due`);--> statement-breakpoint
CREATE INDEX `charges_status` ON `charges` (`status`);--> statement-breakpoint
CREATE UNIQUE INDEX `charges_regular_agreement_due` ON `charges` (`agreement_id`,`due`) WHERE kind = 'REGULAR';--> statement-breakpoint
CREATE UNIQUE INDEX `charges_final_agreement` ON `charges` (`agreement_id`) WHERE kind = 'FINAL';--> statement-breakpoint
CREATE UNIQUE INDEX `charges_vipps_id` ON `charges` (`vipps_charge_id`);--> statement-breakpoint
CREATE TABLE `provider_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`provider_id` text NOT NULL,
	`agreement_id` text NOT NULL,
	`charge_id` text,
	`kind` text NOT NULL,
	`payload` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text NOT NULL,
	`last_error` text,
	`created_at` text NOT NULL,
	`sent_at` text,
	FOREIGN KEY (`provider_id`) REFERENCES `payment_providers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`agreement_id`) REFERENCES `agreements`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`charge_id`) REFERENCES `charges`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `provider_outbox_status_next` ON `provider_outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `provider_outbox_agreement` ON `provider_outbox` (`agreement_id`);
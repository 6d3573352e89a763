CREATE TABLE `household_moves` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`household_id` text NOT NULL,
	`move_date` text NOT NULL,
	`ended_agreement_id` text,
	`new_agreement_id` text,
	`settlement` text,
	`created_by_user_id` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`household_id`) REFERENCES `addresses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `household_moves_household` ON `household_moves` (`household_id`,`move_date`);--> statement-breakpoint
CREATE TABLE `household_residents` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`household_id` text NOT NULL,
	`user_id` text NOT NULL,
	`full_name` text NOT NULL,
	`move_in_date` text NOT NULL,
	`move_out_date` text,
	`kind` text NOT NULL,
	`is_payer` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`household_id`) REFERENCES `addresses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `household_residents_household` ON `household_residents` (`household_id`,`move_in_date`);--> statement-breakpoint
CREATE INDEX `household_residents_user` ON `household_residents` (`user_id`);--> statement-breakpoint
CREATE INDEX `household_residents_company` ON `household_residents` (`company_id`);--> statement-breakpoint
CREATE TABLE `households` (
	`address_id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`type` text DEFAULT 'APARTMENT' NOT NULL,
	`area_centi_m2` integer,
	`allocation_milli` integer,
	`share_ore` integer,
	`external_id` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`address_id`) REFERENCES `addresses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `households_company` ON `households` (`company_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `households_company_external` ON `households` (`company_id`,`external_id`);
ALTER TABLE `addresses` ADD `address_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `addresses_company_key` ON `addresses` (`company_id`,`address_key`);--> statement-breakpoint
ALTER TABLE `company_members` ADD `version` integer DEFAULT 1 NOT NULL;
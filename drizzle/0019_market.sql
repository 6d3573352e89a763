CREATE TABLE `market_listings` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`seller_user_id` text,
	`seller_name` text NOT NULL,
	`kind` text NOT NULL,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`price_ore` integer,
	`photo_id` text,
	`photo_content_type` text,
	`photo_size` integer,
	`status` text DEFAULT 'AVAILABLE' NOT NULL,
	`reserved_by_user_id` text,
	`expires_at` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`seller_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`reserved_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `market_listings_company_created` ON `market_listings` (`company_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `market_listings_seller` ON `market_listings` (`seller_user_id`);
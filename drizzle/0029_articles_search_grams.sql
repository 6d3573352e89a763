CREATE TABLE `article_search_grams` (
	`article_id` text NOT NULL,
	`company_id` text,
	`gram` text NOT NULL,
	PRIMARY KEY(`article_id`, `gram`),
	FOREIGN KEY (`article_id`) REFERENCES `articles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `article_search_grams_gram` ON `article_search_grams` (`gram`,`company_id`,`article_id`);
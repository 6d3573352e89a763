DROP INDEX `invoices_company_issue`;--> statement-breakpoint
DROP INDEX `invoices_member`;--> statement-breakpoint
CREATE INDEX `invoices_company_issue` ON `invoices` (`company_id`,`issue_date`,`number`,`id`);--> statement-breakpoint
CREATE INDEX `invoices_member` ON `invoices` (`member_user_id`,`issue_date`,`number`,`id`);--> statement-breakpoint
CREATE INDEX `messages_company_created` ON `messages` (`company_id`,`created_at`,`id`);
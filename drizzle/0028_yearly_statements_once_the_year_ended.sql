-- Yearly statements once the year has ended (decision 0081, docs/PRODUCT.md "Account statement"):
-- interim statements during the year, resends, and the mail each recipient was told by.
DROP INDEX `statement_sendouts_company_year`;--> statement-breakpoint
ALTER TABLE `statement_sendouts` ADD `kind` text DEFAULT 'YEARLY' NOT NULL;--> statement-breakpoint
ALTER TABLE `statement_sendouts` ADD `through` text;--> statement-breakpoint
ALTER TABLE `statement_sendouts` ADD `resend_of_id` text;--> statement-breakpoint
ALTER TABLE `statement_sendouts` ADD `resend_to_user_id` text;--> statement-breakpoint
-- A sendout queued before its year ended (Copenhagen: 31 December 23:00 UTC) was an interim
-- statement up to that day, not the year's: the yearly statement can still go out.
UPDATE `statement_sendouts` SET `kind` = 'INTERIM', `through` = date(`requested_at`, '+1 hour')
WHERE `requested_at` < printf('%d-12-31T23:00:00', `year`);--> statement-breakpoint
CREATE UNIQUE INDEX `statement_sendouts_yearly_once` ON `statement_sendouts` (`company_id`,`year`) WHERE kind = 'YEARLY' AND resend_of_id IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `statement_sendouts_interim_once_a_day` ON `statement_sendouts` (`company_id`,`year`,`through`) WHERE kind = 'INTERIM' AND resend_of_id IS NULL;--> statement-breakpoint
CREATE INDEX `statement_sendouts_resends` ON `statement_sendouts` (`resend_of_id`);--> statement-breakpoint
ALTER TABLE `statement_sendout_recipients` ADD `mail_id` text;
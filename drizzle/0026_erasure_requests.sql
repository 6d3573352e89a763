-- Erasure only on request (decision 0080, docs/PRIVACY.md): a member's request, filed in the app or recorded
-- by staff, waits for a second staff member's approval; at most one waits per member and association.
CREATE TABLE `personal_data_erasure_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`user_id` text NOT NULL,
	`channel` text NOT NULL,
	`requested_on` text NOT NULL,
	`recorded_by_user_id` text NOT NULL,
	`recorded_at` text NOT NULL,
	`status` text NOT NULL,
	`decided_by_user_id` text,
	`decided_at` text,
	`decision_note` text,
	`erasure_id` text
);
--> statement-breakpoint
CREATE INDEX `personal_data_erasure_requests_company` ON `personal_data_erasure_requests` (`company_id`,`recorded_at`);--> statement-breakpoint
CREATE INDEX `personal_data_erasure_requests_user` ON `personal_data_erasure_requests` (`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `personal_data_erasure_requests_pending` ON `personal_data_erasure_requests` (`company_id`,`user_id`) WHERE status = 'PENDING';
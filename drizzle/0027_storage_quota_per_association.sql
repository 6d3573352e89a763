-- A storage quota per association (decision 0082): the super admin's own quota of an association; without a row, STORAGE_QUOTA_MB.
CREATE TABLE `storage_quotas` (
	`company_id` text PRIMARY KEY NOT NULL,
	`quota_bytes` integer NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);

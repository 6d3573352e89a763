-- Existing sign-in methods count as proven, except an e-mail sign-in whose address is not the
-- owner's own account address: such a method could have been added for somebody else's address
-- before additions needed a confirmation link, so it waits for one now.
UPDATE `auth_methods` SET `verified_at` = `created_at`
WHERE `type` <> 'EMAIL_PASSWORD'
   OR `identifier` = (SELECT `email_address` FROM `users` WHERE `users`.`id` = `auth_methods`.`user_id`);
--> statement-breakpoint
-- Comparable mobile numbers (shared/domain/mobile.ts): digits with the country code, 8 digits
-- meaning Denmark. A number that several users hold is left without a key: nobody's until re-saved.
WITH `k` AS (
  SELECT `id`, CASE WHEN length(`d`) = 8 THEN '45' || `d` WHEN `d` LIKE '00%' THEN substr(`d`, 3) ELSE `d` END AS `key`
  FROM (SELECT `id`, replace(replace(`mobile_number`, ' ', ''), '+', '') AS `d` FROM `users` WHERE `mobile_number` IS NOT NULL AND `mobile_number` <> '')
)
UPDATE `users` SET `mobile_key` = (SELECT `key` FROM `k` WHERE `k`.`id` = `users`.`id`)
WHERE `id` IN (SELECT `id` FROM `k` WHERE `key` IN (SELECT `key` FROM `k` GROUP BY `key` HAVING count(*) = 1));
--> statement-breakpoint
-- A Vipps sign-in attached to a user whose number someone else also held may have been attached
-- by that shared number to the wrong account (before numbers were unique): it is removed, and the
-- owner links Vipps again from the profile.
DELETE FROM `auth_methods` WHERE `type` = 'MOBILEPAY' AND `user_id` IN (
  SELECT `id` FROM `users` WHERE `mobile_number` IS NOT NULL AND `mobile_number` <> '' AND `mobile_key` IS NULL
);

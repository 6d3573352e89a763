-- Comparable addresses (shared/domain/address.ts `addressKey`): postcode, street, number, floor and
-- side, lower case, without dots; number, floor and side without spaces. An address that a company
-- already holds more than once is left without a key (the rows and the agreements using them stay
-- as they are); the service still refuses adding it again, and deleting the extra rows frees it.
WITH `k` AS (
  SELECT `id`, `company_id`,
    replace(lower(trim(replace(`zip`, '.', ''))), ' ', '') || '|' ||
    lower(trim(replace(`street`, '.', ''))) || '|' ||
    replace(lower(trim(replace(`number`, '.', ''))), ' ', '') || '|' ||
    replace(lower(trim(replace(coalesce(`floor`, ''), '.', ''))), ' ', '') || '|' ||
    replace(lower(trim(replace(coalesce(`side`, ''), '.', ''))), ' ', '') AS `key`
  FROM `addresses`
)
UPDATE `addresses` SET `address_key` = (SELECT `key` FROM `k` WHERE `k`.`id` = `addresses`.`id`)
WHERE `id` IN (SELECT `id` FROM `k` WHERE (`company_id`, `key`) IN (SELECT `company_id`, `key` FROM `k` GROUP BY `company_id`, `key` HAVING count(*) = 1));

CREATE TABLE `charge_statistics_months` (
	`company_id` text NOT NULL,
	`year` integer NOT NULL,
	`month` integer NOT NULL,
	`consumer_address` text NOT NULL,
	`hot_and_cold_water` integer DEFAULT 0 NOT NULL,
	`hot_water` integer DEFAULT 0 NOT NULL,
	`cold_water` integer DEFAULT 0 NOT NULL,
	`heating` integer DEFAULT 0 NOT NULL,
	`addition` integer DEFAULT 0 NOT NULL,
	`common_expenses` integer DEFAULT 0 NOT NULL,
	`fee` integer DEFAULT 0 NOT NULL,
	`other` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`company_id`, `year`, `month`, `consumer_address`)
) WITHOUT ROWID;
--> statement-breakpoint
-- Issue #19 (docs/decisions/0051-statistics-month-sums.md): the running month sums follow the day rows of charge_statistics, which follow the invoices (0007), in the same transaction. A change dated in month m of a year adds to that year's rows m..12.
CREATE TRIGGER `charge_statistics_months_added` AFTER INSERT ON `charge_statistics`
BEGIN
  INSERT INTO `charge_statistics_months` (`company_id`, `year`, `month`, `consumer_address`, `hot_and_cold_water`, `hot_water`, `cold_water`, `heating`, `addition`, `common_expenses`, `fee`, `other`)
  SELECT NEW.`company_id`, CAST(substr(NEW.`day`, 1, 4) AS INTEGER), m.column1, NEW.`consumer_address`, NEW.`hot_and_cold_water`, NEW.`hot_water`, NEW.`cold_water`, NEW.`heating`, NEW.`addition`, NEW.`common_expenses`, NEW.`fee`, NEW.`other`
  FROM (VALUES (1), (2), (3), (4), (5), (6), (7), (8), (9), (10), (11), (12)) m WHERE m.column1 >= CAST(substr(NEW.`day`, 6, 2) AS INTEGER)
  ON CONFLICT (`company_id`, `year`, `month`, `consumer_address`) DO UPDATE SET `hot_and_cold_water` = `hot_and_cold_water` + excluded.`hot_and_cold_water`, `hot_water` = `hot_water` + excluded.`hot_water`, `cold_water` = `cold_water` + excluded.`cold_water`, `heating` = `heating` + excluded.`heating`, `addition` = `addition` + excluded.`addition`, `common_expenses` = `common_expenses` + excluded.`common_expenses`, `fee` = `fee` + excluded.`fee`, `other` = `other` + excluded.`other`;
END;
--> statement-breakpoint
-- The day rows change by upsert (ON CONFLICT DO UPDATE) on the same key: add the difference.
CREATE TRIGGER `charge_statistics_months_changed` AFTER UPDATE ON `charge_statistics`
WHEN NEW.`company_id` = OLD.`company_id` AND NEW.`day` = OLD.`day` AND NEW.`consumer_address` = OLD.`consumer_address`
BEGIN
  INSERT INTO `charge_statistics_months` (`company_id`, `year`, `month`, `consumer_address`, `hot_and_cold_water`, `hot_water`, `cold_water`, `heating`, `addition`, `common_expenses`, `fee`, `other`)
  SELECT NEW.`company_id`, CAST(substr(NEW.`day`, 1, 4) AS INTEGER), m.column1, NEW.`consumer_address`, NEW.`hot_and_cold_water` - OLD.`hot_and_cold_water`, NEW.`hot_water` - OLD.`hot_water`, NEW.`cold_water` - OLD.`cold_water`, NEW.`heating` - OLD.`heating`, NEW.`addition` - OLD.`addition`, NEW.`common_expenses` - OLD.`common_expenses`, NEW.`fee` - OLD.`fee`, NEW.`other` - OLD.`other`
  FROM (VALUES (1), (2), (3), (4), (5), (6), (7), (8), (9), (10), (11), (12)) m WHERE m.column1 >= CAST(substr(NEW.`day`, 6, 2) AS INTEGER)
  ON CONFLICT (`company_id`, `year`, `month`, `consumer_address`) DO UPDATE SET `hot_and_cold_water` = `hot_and_cold_water` + excluded.`hot_and_cold_water`, `hot_water` = `hot_water` + excluded.`hot_water`, `cold_water` = `cold_water` + excluded.`cold_water`, `heating` = `heating` + excluded.`heating`, `addition` = `addition` + excluded.`addition`, `common_expenses` = `common_expenses` + excluded.`common_expenses`, `fee` = `fee` + excluded.`fee`, `other` = `other` + excluded.`other`;
END;
--> statement-breakpoint
-- Nothing moves a day row to another key today; should anything do so, the old key loses the old amounts and the new key gains the new ones.
CREATE TRIGGER `charge_statistics_months_moved` AFTER UPDATE ON `charge_statistics`
WHEN NOT (NEW.`company_id` = OLD.`company_id` AND NEW.`day` = OLD.`day` AND NEW.`consumer_address` = OLD.`consumer_address`)
BEGIN
  INSERT INTO `charge_statistics_months` (`company_id`, `year`, `month`, `consumer_address`, `hot_and_cold_water`, `hot_water`, `cold_water`, `heating`, `addition`, `common_expenses`, `fee`, `other`)
  SELECT OLD.`company_id`, CAST(substr(OLD.`day`, 1, 4) AS INTEGER), m.column1, OLD.`consumer_address`, -OLD.`hot_and_cold_water`, -OLD.`hot_water`, -OLD.`cold_water`, -OLD.`heating`, -OLD.`addition`, -OLD.`common_expenses`, -OLD.`fee`, -OLD.`other`
  FROM (VALUES (1), (2), (3), (4), (5), (6), (7), (8), (9), (10), (11), (12)) m WHERE m.column1 >= CAST(substr(OLD.`day`, 6, 2) AS INTEGER)
  ON CONFLICT (`company_id`, `year`, `month`, `consumer_address`) DO UPDATE SET `hot_and_cold_water` = `hot_and_cold_water` + excluded.`hot_and_cold_water`, `hot_water` = `hot_water` + excluded.`hot_water`, `cold_water` = `cold_water` + excluded.`cold_water`, `heating` = `heating` + excluded.`heating`, `addition` = `addition` + excluded.`addition`, `common_expenses` = `common_expenses` + excluded.`common_expenses`, `fee` = `fee` + excluded.`fee`, `other` = `other` + excluded.`other`;
  INSERT INTO `charge_statistics_months` (`company_id`, `year`, `month`, `consumer_address`, `hot_and_cold_water`, `hot_water`, `cold_water`, `heating`, `addition`, `common_expenses`, `fee`, `other`)
  SELECT NEW.`company_id`, CAST(substr(NEW.`day`, 1, 4) AS INTEGER), m.column1, NEW.`consumer_address`, NEW.`hot_and_cold_water`, NEW.`hot_water`, NEW.`cold_water`, NEW.`heating`, NEW.`addition`, NEW.`common_expenses`, NEW.`fee`, NEW.`other`
  FROM (VALUES (1), (2), (3), (4), (5), (6), (7), (8), (9), (10), (11), (12)) m WHERE m.column1 >= CAST(substr(NEW.`day`, 6, 2) AS INTEGER)
  ON CONFLICT (`company_id`, `year`, `month`, `consumer_address`) DO UPDATE SET `hot_and_cold_water` = `hot_and_cold_water` + excluded.`hot_and_cold_water`, `hot_water` = `hot_water` + excluded.`hot_water`, `cold_water` = `cold_water` + excluded.`cold_water`, `heating` = `heating` + excluded.`heating`, `addition` = `addition` + excluded.`addition`, `common_expenses` = `common_expenses` + excluded.`common_expenses`, `fee` = `fee` + excluded.`fee`, `other` = `other` + excluded.`other`;
END;
--> statement-breakpoint
CREATE TRIGGER `charge_statistics_months_removed` AFTER DELETE ON `charge_statistics`
BEGIN
  INSERT INTO `charge_statistics_months` (`company_id`, `year`, `month`, `consumer_address`, `hot_and_cold_water`, `hot_water`, `cold_water`, `heating`, `addition`, `common_expenses`, `fee`, `other`)
  SELECT OLD.`company_id`, CAST(substr(OLD.`day`, 1, 4) AS INTEGER), m.column1, OLD.`consumer_address`, -OLD.`hot_and_cold_water`, -OLD.`hot_water`, -OLD.`cold_water`, -OLD.`heating`, -OLD.`addition`, -OLD.`common_expenses`, -OLD.`fee`, -OLD.`other`
  FROM (VALUES (1), (2), (3), (4), (5), (6), (7), (8), (9), (10), (11), (12)) m WHERE m.column1 >= CAST(substr(OLD.`day`, 6, 2) AS INTEGER)
  ON CONFLICT (`company_id`, `year`, `month`, `consumer_address`) DO UPDATE SET `hot_and_cold_water` = `hot_and_cold_water` + excluded.`hot_and_cold_water`, `hot_water` = `hot_water` + excluded.`hot_water`, `cold_water` = `cold_water` + excluded.`cold_water`, `heating` = `heating` + excluded.`heating`, `addition` = `addition` + excluded.`addition`, `common_expenses` = `common_expenses` + excluded.`common_expenses`, `fee` = `fee` + excluded.`fee`, `other` = `other` + excluded.`other`;
END;
--> statement-breakpoint
-- Backfill from the day rows already there: each month's own sums, then the running sums within the year.
INSERT INTO `charge_statistics_months` (`company_id`, `year`, `month`, `consumer_address`, `hot_and_cold_water`, `hot_water`, `cold_water`, `heating`, `addition`, `common_expenses`, `fee`, `other`)
SELECT d.`company_id`, d.`year`, m.column1, d.`consumer_address`, SUM(d.`hot_and_cold_water`), SUM(d.`hot_water`), SUM(d.`cold_water`), SUM(d.`heating`), SUM(d.`addition`), SUM(d.`common_expenses`), SUM(d.`fee`), SUM(d.`other`)
FROM (
  SELECT `company_id`, CAST(substr(`day`, 1, 4) AS INTEGER) AS `year`, CAST(substr(`day`, 6, 2) AS INTEGER) AS `month`, `consumer_address`, SUM(`hot_and_cold_water`) AS `hot_and_cold_water`, SUM(`hot_water`) AS `hot_water`, SUM(`cold_water`) AS `cold_water`, SUM(`heating`) AS `heating`, SUM(`addition`) AS `addition`, SUM(`common_expenses`) AS `common_expenses`, SUM(`fee`) AS `fee`, SUM(`other`) AS `other`
  FROM `charge_statistics` GROUP BY 1, 2, 3, 4
) d JOIN (VALUES (1), (2), (3), (4), (5), (6), (7), (8), (9), (10), (11), (12)) m ON m.column1 >= d.`month`
GROUP BY d.`company_id`, d.`year`, m.column1, d.`consumer_address`;

CREATE TABLE `charge_statistics` (
	`company_id` text NOT NULL,
	`day` text NOT NULL,
	`agreement_id` text NOT NULL,
	`consumer_address` text NOT NULL,
	`hot_and_cold_water` integer DEFAULT 0 NOT NULL,
	`hot_water` integer DEFAULT 0 NOT NULL,
	`cold_water` integer DEFAULT 0 NOT NULL,
	`heating` integer DEFAULT 0 NOT NULL,
	`addition` integer DEFAULT 0 NOT NULL,
	`common_expenses` integer DEFAULT 0 NOT NULL,
	`fee` integer DEFAULT 0 NOT NULL,
	`other` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`company_id`, `day`, `agreement_id`, `consumer_address`)
) WITHOUT ROWID;
--> statement-breakpoint
-- Issue #9: charge_statistics follows the invoices through triggers, in the transaction of every change (shared/domain/statistics.ts has the rules).
CREATE TRIGGER `charge_statistics_line_added` AFTER INSERT ON `invoice_lines`
WHEN (SELECT status FROM invoices WHERE id = NEW.invoice_id) = 'EXECUTED'
BEGIN
  INSERT INTO `charge_statistics` (`company_id`, `day`, `agreement_id`, `consumer_address`, `hot_and_cold_water`, `hot_water`, `cold_water`, `heating`, `addition`, `common_expenses`, `fee`, `other`)
  SELECT i.company_id, COALESCE(i.payment_date, i.issue_date), i.agreement_id, COALESCE(i.consumer_address, ''),
    CASE WHEN NEW.type = 'HOT_AND_COLD_WATER' THEN i.amount ELSE 0 END,
    CASE WHEN NEW.type = 'HOT_WATER' THEN i.amount ELSE 0 END,
    CASE WHEN NEW.type = 'COLD_WATER' THEN i.amount ELSE 0 END,
    CASE WHEN NEW.type = 'HEAT' THEN i.amount ELSE 0 END,
    CASE WHEN NEW.type = 'ADDITION' THEN i.amount ELSE 0 END,
    CASE WHEN NEW.type = 'COMMON_EXPENSES' THEN i.amount ELSE 0 END,
    CASE WHEN NEW.type = 'FEE' THEN i.amount ELSE 0 END,
    CASE WHEN NEW.type = 'OTHER' THEN i.amount ELSE 0 END
  FROM (SELECT *, (CASE invoices.kind WHEN 'CREDIT_NOTE' THEN -1 ELSE 1 END) * NEW.total_incl_vat_ore AS amount FROM invoices WHERE id = NEW.invoice_id) i
  WHERE true
  ON CONFLICT (`company_id`, `day`, `agreement_id`, `consumer_address`) DO UPDATE SET `hot_and_cold_water` = `hot_and_cold_water` + excluded.`hot_and_cold_water`, `hot_water` = `hot_water` + excluded.`hot_water`, `cold_water` = `cold_water` + excluded.`cold_water`, `heating` = `heating` + excluded.`heating`, `addition` = `addition` + excluded.`addition`, `common_expenses` = `common_expenses` + excluded.`common_expenses`, `fee` = `fee` + excluded.`fee`, `other` = `other` + excluded.`other`;
END;
--> statement-breakpoint
CREATE TRIGGER `charge_statistics_invoice_left` AFTER UPDATE OF status, payment_date, issue_date, consumer_address, agreement_id, company_id, kind ON `invoices`
WHEN OLD.status = 'EXECUTED' AND (NEW.status IS NOT 'EXECUTED' OR (COALESCE(NEW.payment_date, NEW.issue_date) IS NOT COALESCE(OLD.payment_date, OLD.issue_date) OR NEW.consumer_address IS NOT OLD.consumer_address OR NEW.agreement_id IS NOT OLD.agreement_id OR NEW.company_id IS NOT OLD.company_id OR NEW.kind IS NOT OLD.kind))
BEGIN
  INSERT INTO `charge_statistics` (`company_id`, `day`, `agreement_id`, `consumer_address`, `hot_and_cold_water`, `hot_water`, `cold_water`, `heating`, `addition`, `common_expenses`, `fee`, `other`)
  SELECT OLD.company_id, COALESCE(OLD.payment_date, OLD.issue_date), OLD.agreement_id, COALESCE(OLD.consumer_address, ''),
    (CASE OLD.kind WHEN 'CREDIT_NOTE' THEN 1 ELSE -1 END) * SUM(CASE WHEN l.type = 'HOT_AND_COLD_WATER' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE OLD.kind WHEN 'CREDIT_NOTE' THEN 1 ELSE -1 END) * SUM(CASE WHEN l.type = 'HOT_WATER' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE OLD.kind WHEN 'CREDIT_NOTE' THEN 1 ELSE -1 END) * SUM(CASE WHEN l.type = 'COLD_WATER' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE OLD.kind WHEN 'CREDIT_NOTE' THEN 1 ELSE -1 END) * SUM(CASE WHEN l.type = 'HEAT' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE OLD.kind WHEN 'CREDIT_NOTE' THEN 1 ELSE -1 END) * SUM(CASE WHEN l.type = 'ADDITION' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE OLD.kind WHEN 'CREDIT_NOTE' THEN 1 ELSE -1 END) * SUM(CASE WHEN l.type = 'COMMON_EXPENSES' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE OLD.kind WHEN 'CREDIT_NOTE' THEN 1 ELSE -1 END) * SUM(CASE WHEN l.type = 'FEE' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE OLD.kind WHEN 'CREDIT_NOTE' THEN 1 ELSE -1 END) * SUM(CASE WHEN l.type = 'OTHER' THEN l.total_incl_vat_ore ELSE 0 END)
  FROM invoice_lines l WHERE l.invoice_id = OLD.id GROUP BY l.invoice_id
  ON CONFLICT (`company_id`, `day`, `agreement_id`, `consumer_address`) DO UPDATE SET `hot_and_cold_water` = `hot_and_cold_water` + excluded.`hot_and_cold_water`, `hot_water` = `hot_water` + excluded.`hot_water`, `cold_water` = `cold_water` + excluded.`cold_water`, `heating` = `heating` + excluded.`heating`, `addition` = `addition` + excluded.`addition`, `common_expenses` = `common_expenses` + excluded.`common_expenses`, `fee` = `fee` + excluded.`fee`, `other` = `other` + excluded.`other`;
END;
--> statement-breakpoint
CREATE TRIGGER `charge_statistics_invoice_entered` AFTER UPDATE OF status, payment_date, issue_date, consumer_address, agreement_id, company_id, kind ON `invoices`
WHEN NEW.status = 'EXECUTED' AND (OLD.status IS NOT 'EXECUTED' OR (COALESCE(NEW.payment_date, NEW.issue_date) IS NOT COALESCE(OLD.payment_date, OLD.issue_date) OR NEW.consumer_address IS NOT OLD.consumer_address OR NEW.agreement_id IS NOT OLD.agreement_id OR NEW.company_id IS NOT OLD.company_id OR NEW.kind IS NOT OLD.kind))
BEGIN
  INSERT INTO `charge_statistics` (`company_id`, `day`, `agreement_id`, `consumer_address`, `hot_and_cold_water`, `hot_water`, `cold_water`, `heating`, `addition`, `common_expenses`, `fee`, `other`)
  SELECT NEW.company_id, COALESCE(NEW.payment_date, NEW.issue_date), NEW.agreement_id, COALESCE(NEW.consumer_address, ''),
    (CASE NEW.kind WHEN 'CREDIT_NOTE' THEN -1 ELSE 1 END) * SUM(CASE WHEN l.type = 'HOT_AND_COLD_WATER' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE NEW.kind WHEN 'CREDIT_NOTE' THEN -1 ELSE 1 END) * SUM(CASE WHEN l.type = 'HOT_WATER' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE NEW.kind WHEN 'CREDIT_NOTE' THEN -1 ELSE 1 END) * SUM(CASE WHEN l.type = 'COLD_WATER' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE NEW.kind WHEN 'CREDIT_NOTE' THEN -1 ELSE 1 END) * SUM(CASE WHEN l.type = 'HEAT' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE NEW.kind WHEN 'CREDIT_NOTE' THEN -1 ELSE 1 END) * SUM(CASE WHEN l.type = 'ADDITION' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE NEW.kind WHEN 'CREDIT_NOTE' THEN -1 ELSE 1 END) * SUM(CASE WHEN l.type = 'COMMON_EXPENSES' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE NEW.kind WHEN 'CREDIT_NOTE' THEN -1 ELSE 1 END) * SUM(CASE WHEN l.type = 'FEE' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE NEW.kind WHEN 'CREDIT_NOTE' THEN -1 ELSE 1 END) * SUM(CASE WHEN l.type = 'OTHER' THEN l.total_incl_vat_ore ELSE 0 END)
  FROM invoice_lines l WHERE l.invoice_id = NEW.id GROUP BY l.invoice_id
  ON CONFLICT (`company_id`, `day`, `agreement_id`, `consumer_address`) DO UPDATE SET `hot_and_cold_water` = `hot_and_cold_water` + excluded.`hot_and_cold_water`, `hot_water` = `hot_water` + excluded.`hot_water`, `cold_water` = `cold_water` + excluded.`cold_water`, `heating` = `heating` + excluded.`heating`, `addition` = `addition` + excluded.`addition`, `common_expenses` = `common_expenses` + excluded.`common_expenses`, `fee` = `fee` + excluded.`fee`, `other` = `other` + excluded.`other`;
END;
--> statement-breakpoint
CREATE TRIGGER `charge_statistics_invoice_deleted` BEFORE DELETE ON `invoices`
WHEN OLD.status = 'EXECUTED'
BEGIN
  INSERT INTO `charge_statistics` (`company_id`, `day`, `agreement_id`, `consumer_address`, `hot_and_cold_water`, `hot_water`, `cold_water`, `heating`, `addition`, `common_expenses`, `fee`, `other`)
  SELECT OLD.company_id, COALESCE(OLD.payment_date, OLD.issue_date), OLD.agreement_id, COALESCE(OLD.consumer_address, ''),
    (CASE OLD.kind WHEN 'CREDIT_NOTE' THEN 1 ELSE -1 END) * SUM(CASE WHEN l.type = 'HOT_AND_COLD_WATER' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE OLD.kind WHEN 'CREDIT_NOTE' THEN 1 ELSE -1 END) * SUM(CASE WHEN l.type = 'HOT_WATER' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE OLD.kind WHEN 'CREDIT_NOTE' THEN 1 ELSE -1 END) * SUM(CASE WHEN l.type = 'COLD_WATER' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE OLD.kind WHEN 'CREDIT_NOTE' THEN 1 ELSE -1 END) * SUM(CASE WHEN l.type = 'HEAT' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE OLD.kind WHEN 'CREDIT_NOTE' THEN 1 ELSE -1 END) * SUM(CASE WHEN l.type = 'ADDITION' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE OLD.kind WHEN 'CREDIT_NOTE' THEN 1 ELSE -1 END) * SUM(CASE WHEN l.type = 'COMMON_EXPENSES' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE OLD.kind WHEN 'CREDIT_NOTE' THEN 1 ELSE -1 END) * SUM(CASE WHEN l.type = 'FEE' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE OLD.kind WHEN 'CREDIT_NOTE' THEN 1 ELSE -1 END) * SUM(CASE WHEN l.type = 'OTHER' THEN l.total_incl_vat_ore ELSE 0 END)
  FROM invoice_lines l WHERE l.invoice_id = OLD.id GROUP BY l.invoice_id
  ON CONFLICT (`company_id`, `day`, `agreement_id`, `consumer_address`) DO UPDATE SET `hot_and_cold_water` = `hot_and_cold_water` + excluded.`hot_and_cold_water`, `hot_water` = `hot_water` + excluded.`hot_water`, `cold_water` = `cold_water` + excluded.`cold_water`, `heating` = `heating` + excluded.`heating`, `addition` = `addition` + excluded.`addition`, `common_expenses` = `common_expenses` + excluded.`common_expenses`, `fee` = `fee` + excluded.`fee`, `other` = `other` + excluded.`other`;
END;
--> statement-breakpoint
INSERT INTO `charge_statistics` (`company_id`, `day`, `agreement_id`, `consumer_address`, `hot_and_cold_water`, `hot_water`, `cold_water`, `heating`, `addition`, `common_expenses`, `fee`, `other`)
SELECT i.company_id, COALESCE(i.payment_date, i.issue_date), i.agreement_id, COALESCE(i.consumer_address, ''),
    (CASE i.kind WHEN 'CREDIT_NOTE' THEN -1 ELSE 1 END) * SUM(CASE WHEN l.type = 'HOT_AND_COLD_WATER' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE i.kind WHEN 'CREDIT_NOTE' THEN -1 ELSE 1 END) * SUM(CASE WHEN l.type = 'HOT_WATER' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE i.kind WHEN 'CREDIT_NOTE' THEN -1 ELSE 1 END) * SUM(CASE WHEN l.type = 'COLD_WATER' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE i.kind WHEN 'CREDIT_NOTE' THEN -1 ELSE 1 END) * SUM(CASE WHEN l.type = 'HEAT' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE i.kind WHEN 'CREDIT_NOTE' THEN -1 ELSE 1 END) * SUM(CASE WHEN l.type = 'ADDITION' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE i.kind WHEN 'CREDIT_NOTE' THEN -1 ELSE 1 END) * SUM(CASE WHEN l.type = 'COMMON_EXPENSES' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE i.kind WHEN 'CREDIT_NOTE' THEN -1 ELSE 1 END) * SUM(CASE WHEN l.type = 'FEE' THEN l.total_incl_vat_ore ELSE 0 END),
    (CASE i.kind WHEN 'CREDIT_NOTE' THEN -1 ELSE 1 END) * SUM(CASE WHEN l.type = 'OTHER' THEN l.total_incl_vat_ore ELSE 0 END)
FROM invoices i JOIN invoice_lines l ON l.invoice_id = i.id WHERE i.status = 'EXECUTED'
GROUP BY i.company_id, COALESCE(i.payment_date, i.issue_date), i.agreement_id, COALESCE(i.consumer_address, '');

-- The statistics pre-aggregates of SQLite's migrations 0007 (charge_statistics follows the invoices) and
-- 0015 (charge_statistics_months follows the day rows), in plpgsql, with the same trigger names
-- and the same rules: shared/domain/statistics.ts, docs/decisions/0051-statistics-month-sums.md.
-- Both tables are created empty by 0000 together with the invoices, so there is nothing to backfill.
--
-- Money sums are bigint; SUM(bigint) is numeric in PostgreSQL, hence the casts back.
-- Upserts name the target table (AS s / AS m) in DO UPDATE: a bare column there could clash with
-- a plpgsql parameter. The month rows of one address are upserted in month order, so two
-- transactions touching the same address lock its rows in the same order.

-- A run of amounts dated `p_day` for one address: added to the running sums of that month and
-- the rest of its year (months m..12).
CREATE FUNCTION charge_statistics_months_add(p_company_id text, p_day text, p_consumer_address text, p_hot_and_cold_water bigint, p_hot_water bigint, p_cold_water bigint, p_heating bigint, p_addition bigint, p_common_expenses bigint, p_fee bigint, p_other bigint) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO charge_statistics_months AS m (company_id, year, month, consumer_address, hot_and_cold_water, hot_water, cold_water, heating, addition, common_expenses, fee, other)
  SELECT p_company_id, substr(p_day, 1, 4)::integer, months.month, p_consumer_address, p_hot_and_cold_water, p_hot_water, p_cold_water, p_heating, p_addition, p_common_expenses, p_fee, p_other
  FROM generate_series(substr(p_day, 6, 2)::integer, 12) AS months(month)
  ORDER BY months.month
  ON CONFLICT (company_id, year, month, consumer_address) DO UPDATE SET hot_and_cold_water = m.hot_and_cold_water + excluded.hot_and_cold_water, hot_water = m.hot_water + excluded.hot_water, cold_water = m.cold_water + excluded.cold_water, heating = m.heating + excluded.heating, addition = m.addition + excluded.addition, common_expenses = m.common_expenses + excluded.common_expenses, fee = m.fee + excluded.fee, other = m.other + excluded.other;
END
$$;
--> statement-breakpoint
CREATE FUNCTION charge_statistics_months_follow() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM charge_statistics_months_add(NEW.company_id, NEW.day, NEW.consumer_address, NEW.hot_and_cold_water, NEW.hot_water, NEW.cold_water, NEW.heating, NEW.addition, NEW.common_expenses, NEW.fee, NEW.other);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM charge_statistics_months_add(OLD.company_id, OLD.day, OLD.consumer_address, -OLD.hot_and_cold_water, -OLD.hot_water, -OLD.cold_water, -OLD.heating, -OLD.addition, -OLD.common_expenses, -OLD.fee, -OLD.other);
  ELSIF NEW.company_id = OLD.company_id AND NEW.day = OLD.day AND NEW.consumer_address = OLD.consumer_address THEN
    -- The day rows change by upsert on the same key: add the difference.
    PERFORM charge_statistics_months_add(NEW.company_id, NEW.day, NEW.consumer_address, NEW.hot_and_cold_water - OLD.hot_and_cold_water, NEW.hot_water - OLD.hot_water, NEW.cold_water - OLD.cold_water, NEW.heating - OLD.heating, NEW.addition - OLD.addition, NEW.common_expenses - OLD.common_expenses, NEW.fee - OLD.fee, NEW.other - OLD.other);
  ELSE
    -- Nothing moves a day row to another key today; should anything do so, the old key loses the
    -- old amounts and the new key gains the new ones.
    PERFORM charge_statistics_months_add(OLD.company_id, OLD.day, OLD.consumer_address, -OLD.hot_and_cold_water, -OLD.hot_water, -OLD.cold_water, -OLD.heating, -OLD.addition, -OLD.common_expenses, -OLD.fee, -OLD.other);
    PERFORM charge_statistics_months_add(NEW.company_id, NEW.day, NEW.consumer_address, NEW.hot_and_cold_water, NEW.hot_water, NEW.cold_water, NEW.heating, NEW.addition, NEW.common_expenses, NEW.fee, NEW.other);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER charge_statistics_months_added AFTER INSERT ON charge_statistics
FOR EACH ROW EXECUTE FUNCTION charge_statistics_months_follow();
--> statement-breakpoint
CREATE TRIGGER charge_statistics_months_changed AFTER UPDATE ON charge_statistics
FOR EACH ROW WHEN (NEW.company_id = OLD.company_id AND NEW.day = OLD.day AND NEW.consumer_address = OLD.consumer_address) EXECUTE FUNCTION charge_statistics_months_follow();
--> statement-breakpoint
CREATE TRIGGER charge_statistics_months_moved AFTER UPDATE ON charge_statistics
FOR EACH ROW WHEN (NOT (NEW.company_id = OLD.company_id AND NEW.day = OLD.day AND NEW.consumer_address = OLD.consumer_address)) EXECUTE FUNCTION charge_statistics_months_follow();
--> statement-breakpoint
CREATE TRIGGER charge_statistics_months_removed AFTER DELETE ON charge_statistics
FOR EACH ROW EXECUTE FUNCTION charge_statistics_months_follow();
--> statement-breakpoint
-- An invoice's lines counted into (p_direction 1) or out of (-1) its day row; a credit note's lines count negative.
CREATE FUNCTION charge_statistics_add_invoice(p_invoice invoices, p_direction integer) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_sign integer := p_direction * (CASE p_invoice.kind WHEN 'CREDIT_NOTE' THEN -1 ELSE 1 END);
BEGIN
  INSERT INTO charge_statistics AS s (company_id, day, agreement_id, consumer_address, hot_and_cold_water, hot_water, cold_water, heating, addition, common_expenses, fee, other)
  SELECT p_invoice.company_id, COALESCE(p_invoice.payment_date, p_invoice.issue_date), p_invoice.agreement_id, COALESCE(p_invoice.consumer_address, ''),
    v_sign * SUM(CASE WHEN l.type = 'HOT_AND_COLD_WATER' THEN l.total_incl_vat_ore ELSE 0 END)::bigint,
    v_sign * SUM(CASE WHEN l.type = 'HOT_WATER' THEN l.total_incl_vat_ore ELSE 0 END)::bigint,
    v_sign * SUM(CASE WHEN l.type = 'COLD_WATER' THEN l.total_incl_vat_ore ELSE 0 END)::bigint,
    v_sign * SUM(CASE WHEN l.type = 'HEAT' THEN l.total_incl_vat_ore ELSE 0 END)::bigint,
    v_sign * SUM(CASE WHEN l.type = 'ADDITION' THEN l.total_incl_vat_ore ELSE 0 END)::bigint,
    v_sign * SUM(CASE WHEN l.type = 'COMMON_EXPENSES' THEN l.total_incl_vat_ore ELSE 0 END)::bigint,
    v_sign * SUM(CASE WHEN l.type = 'FEE' THEN l.total_incl_vat_ore ELSE 0 END)::bigint,
    v_sign * SUM(CASE WHEN l.type = 'OTHER' THEN l.total_incl_vat_ore ELSE 0 END)::bigint
  FROM invoice_lines l WHERE l.invoice_id = p_invoice.id GROUP BY l.invoice_id
  ON CONFLICT (company_id, day, agreement_id, consumer_address) DO UPDATE SET hot_and_cold_water = s.hot_and_cold_water + excluded.hot_and_cold_water, hot_water = s.hot_water + excluded.hot_water, cold_water = s.cold_water + excluded.cold_water, heating = s.heating + excluded.heating, addition = s.addition + excluded.addition, common_expenses = s.common_expenses + excluded.common_expenses, fee = s.fee + excluded.fee, other = s.other + excluded.other;
END
$$;
--> statement-breakpoint
-- TG_ARGV[0]: 'out' takes the old invoice out of its day row, 'in' puts the new one in.
CREATE FUNCTION charge_statistics_follow_invoice() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_ARGV[0] = 'out' THEN
    PERFORM charge_statistics_add_invoice(OLD, -1);
    RETURN OLD;
  END IF;
  PERFORM charge_statistics_add_invoice(NEW, 1);
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER charge_statistics_invoice_left AFTER UPDATE OF status, payment_date, issue_date, consumer_address, agreement_id, company_id, kind ON invoices
FOR EACH ROW WHEN (OLD.status = 'EXECUTED' AND (NEW.status IS DISTINCT FROM 'EXECUTED' OR COALESCE(NEW.payment_date, NEW.issue_date) IS DISTINCT FROM COALESCE(OLD.payment_date, OLD.issue_date) OR NEW.consumer_address IS DISTINCT FROM OLD.consumer_address OR NEW.agreement_id IS DISTINCT FROM OLD.agreement_id OR NEW.company_id IS DISTINCT FROM OLD.company_id OR NEW.kind IS DISTINCT FROM OLD.kind))
EXECUTE FUNCTION charge_statistics_follow_invoice('out');
--> statement-breakpoint
CREATE TRIGGER charge_statistics_invoice_entered AFTER UPDATE OF status, payment_date, issue_date, consumer_address, agreement_id, company_id, kind ON invoices
FOR EACH ROW WHEN (NEW.status = 'EXECUTED' AND (OLD.status IS DISTINCT FROM 'EXECUTED' OR COALESCE(NEW.payment_date, NEW.issue_date) IS DISTINCT FROM COALESCE(OLD.payment_date, OLD.issue_date) OR NEW.consumer_address IS DISTINCT FROM OLD.consumer_address OR NEW.agreement_id IS DISTINCT FROM OLD.agreement_id OR NEW.company_id IS DISTINCT FROM OLD.company_id OR NEW.kind IS DISTINCT FROM OLD.kind))
EXECUTE FUNCTION charge_statistics_follow_invoice('in');
--> statement-breakpoint
-- BEFORE: the lines are still there (they go by the cascade after the invoice row).
CREATE TRIGGER charge_statistics_invoice_deleted BEFORE DELETE ON invoices
FOR EACH ROW WHEN (OLD.status = 'EXECUTED') EXECUTE FUNCTION charge_statistics_follow_invoice('out');
--> statement-breakpoint
-- A line added to an executed invoice (a trigger's WHEN cannot read another table, so the function checks).
CREATE FUNCTION charge_statistics_line_added() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  i invoices;
  amount bigint;
BEGIN
  SELECT * INTO i FROM invoices WHERE id = NEW.invoice_id;
  IF i.status IS DISTINCT FROM 'EXECUTED' THEN
    RETURN NULL;
  END IF;
  amount := (CASE i.kind WHEN 'CREDIT_NOTE' THEN -1 ELSE 1 END) * NEW.total_incl_vat_ore;
  INSERT INTO charge_statistics AS s (company_id, day, agreement_id, consumer_address, hot_and_cold_water, hot_water, cold_water, heating, addition, common_expenses, fee, other)
  VALUES (i.company_id, COALESCE(i.payment_date, i.issue_date), i.agreement_id, COALESCE(i.consumer_address, ''),
    CASE WHEN NEW.type = 'HOT_AND_COLD_WATER' THEN amount ELSE 0 END,
    CASE WHEN NEW.type = 'HOT_WATER' THEN amount ELSE 0 END,
    CASE WHEN NEW.type = 'COLD_WATER' THEN amount ELSE 0 END,
    CASE WHEN NEW.type = 'HEAT' THEN amount ELSE 0 END,
    CASE WHEN NEW.type = 'ADDITION' THEN amount ELSE 0 END,
    CASE WHEN NEW.type = 'COMMON_EXPENSES' THEN amount ELSE 0 END,
    CASE WHEN NEW.type = 'FEE' THEN amount ELSE 0 END,
    CASE WHEN NEW.type = 'OTHER' THEN amount ELSE 0 END)
  ON CONFLICT (company_id, day, agreement_id, consumer_address) DO UPDATE SET hot_and_cold_water = s.hot_and_cold_water + excluded.hot_and_cold_water, hot_water = s.hot_water + excluded.hot_water, cold_water = s.cold_water + excluded.cold_water, heating = s.heating + excluded.heating, addition = s.addition + excluded.addition, common_expenses = s.common_expenses + excluded.common_expenses, fee = s.fee + excluded.fee, other = s.other + excluded.other;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER charge_statistics_line_added AFTER INSERT ON invoice_lines
FOR EACH ROW EXECUTE FUNCTION charge_statistics_line_added();

-- Closed months (issue #23 part A, decision 0067), as SQLite's migration 0023: the last line of
-- defence behind the billing services' 409s. Once a company's month (YYYY-MM of a Copenhagen
-- date) is in bookkeeping_closed_months, no invoice or credit note can be issued dated in it, and
-- the status, payment, settlement and amount columns of a document paid or settled in it (and its
-- lines) cannot change. The member's e-mail address and phone number stay writable (the GDPR
-- erase blanks them on kept vouchers). A closed month is never reopened or changed.
CREATE FUNCTION bookkeeping_month_closed(p_company_id text, p_dates text[]) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM bookkeeping_closed_months c WHERE c.company_id = p_company_id
    AND c.month IN (SELECT substr(d, 1, 7) FROM unnest(p_dates) AS d WHERE d IS NOT NULL))
$$;
--> statement-breakpoint
CREATE FUNCTION invoices_closed_month_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF bookkeeping_month_closed(NEW.company_id, ARRAY[NEW.issue_date]) THEN
      RAISE EXCEPTION 'bookkeeping: the month is closed' USING ERRCODE = 'P0001';
    END IF;
  ELSIF (NEW.status, NEW.payment_status, NEW.payment_type, NEW.payment_date, NEW.settlement, NEW.settled_on, NEW.settlement_note,
         NEW.settled_by_user_id, NEW.settled_by_name, NEW.subtotal_ore, NEW.vat_ore, NEW.total_ore, NEW.vat_rate, NEW.issue_date,
         NEW.kind, NEW.number, NEW.company_id)
        IS DISTINCT FROM
        (OLD.status, OLD.payment_status, OLD.payment_type, OLD.payment_date, OLD.settlement, OLD.settled_on, OLD.settlement_note,
         OLD.settled_by_user_id, OLD.settled_by_name, OLD.subtotal_ore, OLD.vat_ore, OLD.total_ore, OLD.vat_rate, OLD.issue_date,
         OLD.kind, OLD.number, OLD.company_id)
     AND bookkeeping_month_closed(OLD.company_id, ARRAY[OLD.payment_date, OLD.settled_on, NEW.payment_date, NEW.settled_on]) THEN
    RAISE EXCEPTION 'bookkeeping: the month is closed' USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER invoices_closed_month_insert BEFORE INSERT ON invoices
FOR EACH ROW EXECUTE FUNCTION invoices_closed_month_guard();
--> statement-breakpoint
CREATE TRIGGER invoices_closed_month_update BEFORE UPDATE ON invoices
FOR EACH ROW EXECUTE FUNCTION invoices_closed_month_guard();
--> statement-breakpoint
CREATE FUNCTION invoice_lines_closed_month_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_closed boolean;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT bookkeeping_month_closed(i.company_id, ARRAY[i.issue_date, i.payment_date, i.settled_on]) INTO v_closed FROM invoices i WHERE i.id = NEW.invoice_id;
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT bool_or(bookkeeping_month_closed(i.company_id, ARRAY[i.payment_date, i.settled_on])) INTO v_closed FROM invoices i WHERE i.id IN (OLD.invoice_id, NEW.invoice_id);
  ELSE
    SELECT bookkeeping_month_closed(i.company_id, ARRAY[i.payment_date, i.settled_on]) INTO v_closed FROM invoices i WHERE i.id = OLD.invoice_id;
  END IF;
  IF coalesce(v_closed, false) THEN
    RAISE EXCEPTION 'bookkeeping: the month is closed' USING ERRCODE = 'P0001';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER invoice_lines_closed_month_insert BEFORE INSERT ON invoice_lines
FOR EACH ROW EXECUTE FUNCTION invoice_lines_closed_month_guard();
--> statement-breakpoint
CREATE TRIGGER invoice_lines_closed_month_update BEFORE UPDATE ON invoice_lines
FOR EACH ROW EXECUTE FUNCTION invoice_lines_closed_month_guard();
--> statement-breakpoint
CREATE TRIGGER invoice_lines_closed_month_delete BEFORE DELETE ON invoice_lines
FOR EACH ROW EXECUTE FUNCTION invoice_lines_closed_month_guard();
--> statement-breakpoint
CREATE FUNCTION bookkeeping_closed_months_kept() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'bookkeeping: a closed month stays closed' USING ERRCODE = 'P0001';
END
$$;
--> statement-breakpoint
CREATE TRIGGER bookkeeping_closed_months_kept_update BEFORE UPDATE ON bookkeeping_closed_months
FOR EACH ROW EXECUTE FUNCTION bookkeeping_closed_months_kept();
--> statement-breakpoint
CREATE TRIGGER bookkeeping_closed_months_kept_delete BEFORE DELETE ON bookkeeping_closed_months
FOR EACH ROW EXECUTE FUNCTION bookkeeping_closed_months_kept();

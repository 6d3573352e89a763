-- Closed months (issue #23 part A, decision 0067): the last line of defence behind the billing
-- services' 409s. Once a company's month (YYYY-MM of a Copenhagen date) is in
-- bookkeeping_closed_months, no invoice or credit note can be issued dated in it, and the
-- status, payment, settlement and amount columns of a document paid or settled in it (and its
-- lines) cannot change. The member's e-mail address and phone number stay writable (the GDPR
-- erase blanks them on kept vouchers). A closed month is never reopened or changed.
CREATE TRIGGER invoices_closed_month_insert BEFORE INSERT ON invoices
WHEN EXISTS (SELECT 1 FROM bookkeeping_closed_months c WHERE c.company_id = new.company_id AND c.month = substr(new.issue_date, 1, 7))
BEGIN
  SELECT RAISE(ABORT, 'bookkeeping: the month is closed');
END;
--> statement-breakpoint
CREATE TRIGGER invoices_closed_month_update BEFORE UPDATE ON invoices
WHEN (new.status IS NOT old.status OR new.payment_status IS NOT old.payment_status OR new.payment_type IS NOT old.payment_type
      OR new.payment_date IS NOT old.payment_date OR new.settlement IS NOT old.settlement OR new.settled_on IS NOT old.settled_on
      OR new.settlement_note IS NOT old.settlement_note OR new.settled_by_user_id IS NOT old.settled_by_user_id
      OR new.settled_by_name IS NOT old.settled_by_name OR new.subtotal_ore IS NOT old.subtotal_ore OR new.vat_ore IS NOT old.vat_ore
      OR new.total_ore IS NOT old.total_ore OR new.vat_rate IS NOT old.vat_rate OR new.issue_date IS NOT old.issue_date
      OR new.kind IS NOT old.kind OR new.number IS NOT old.number OR new.company_id IS NOT old.company_id)
  AND EXISTS (SELECT 1 FROM bookkeeping_closed_months c WHERE c.company_id = old.company_id
      AND c.month IN (substr(old.payment_date, 1, 7), substr(old.settled_on, 1, 7), substr(new.payment_date, 1, 7), substr(new.settled_on, 1, 7)))
BEGIN
  SELECT RAISE(ABORT, 'bookkeeping: the month is closed');
END;
--> statement-breakpoint
CREATE TRIGGER invoice_lines_closed_month_insert BEFORE INSERT ON invoice_lines
WHEN EXISTS (SELECT 1 FROM invoices i JOIN bookkeeping_closed_months c ON c.company_id = i.company_id
      AND c.month IN (substr(i.issue_date, 1, 7), substr(i.payment_date, 1, 7), substr(i.settled_on, 1, 7)) WHERE i.id = new.invoice_id)
BEGIN
  SELECT RAISE(ABORT, 'bookkeeping: the month is closed');
END;
--> statement-breakpoint
CREATE TRIGGER invoice_lines_closed_month_update BEFORE UPDATE ON invoice_lines
WHEN EXISTS (SELECT 1 FROM invoices i JOIN bookkeeping_closed_months c ON c.company_id = i.company_id
      AND c.month IN (substr(i.payment_date, 1, 7), substr(i.settled_on, 1, 7)) WHERE i.id IN (old.invoice_id, new.invoice_id))
BEGIN
  SELECT RAISE(ABORT, 'bookkeeping: the month is closed');
END;
--> statement-breakpoint
CREATE TRIGGER invoice_lines_closed_month_delete BEFORE DELETE ON invoice_lines
WHEN EXISTS (SELECT 1 FROM invoices i JOIN bookkeeping_closed_months c ON c.company_id = i.company_id
      AND c.month IN (substr(i.payment_date, 1, 7), substr(i.settled_on, 1, 7)) WHERE i.id = old.invoice_id)
BEGIN
  SELECT RAISE(ABORT, 'bookkeeping: the month is closed');
END;
--> statement-breakpoint
CREATE TRIGGER bookkeeping_closed_months_kept_update BEFORE UPDATE ON bookkeeping_closed_months
BEGIN
  SELECT RAISE(ABORT, 'bookkeeping: a closed month stays closed');
END;
--> statement-breakpoint
CREATE TRIGGER bookkeeping_closed_months_kept_delete BEFORE DELETE ON bookkeeping_closed_months
BEGIN
  SELECT RAISE(ABORT, 'bookkeeping: a closed month stays closed');
END;

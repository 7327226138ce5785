-- The payment row's invariants (L7 and the status list) move from twelve CHECK constraints into one BEFORE row
-- trigger, unchanged in meaning and in the names a violation reports.
--
-- Why: PostgreSQL re-reads every CHECK constraint of a table from its stored text (stringToNode) and compiles it
-- again for each INSERT or UPDATE statement, not once per connection. For payments' twelve that was about 1.0
-- million of the 5.1 million instructions a payment cost the database backend (Script K under callgrind,
-- benchmarks/README.md, issue 11): a fifth of the database's work per payment, spent re-parsing constants. A
-- PL/pgSQL trigger is compiled once per connection and evaluates the same conditions in one expression; it cost
-- about 80 thousand instructions per row.
--
-- What it enforces is exactly what the constraints did: a write that breaks one is refused with SQLSTATE 23514
-- (check_violation) naming the constraint it replaces. A NULL in a NOT NULL column still fails as not_null_violation
-- (the trigger lets a NULL through, as a CHECK does, and the column's NOT NULL refuses it).
ALTER TABLE payments
    DROP CONSTRAINT payments_amount_check,
    DROP CONSTRAINT payments_currency_check,
    DROP CONSTRAINT payments_reference_check,
    DROP CONSTRAINT payments_capture_method_check,
    DROP CONSTRAINT payments_status_check,
    DROP CONSTRAINT ck_payments_amounts_not_negative,
    DROP CONSTRAINT ck_payments_disputed_not_negative,
    DROP CONSTRAINT ck_payments_authorized_le_amount,
    DROP CONSTRAINT ck_payments_captured_le_authorized,
    DROP CONSTRAINT ck_payments_refunded_le_captured,
    DROP CONSTRAINT ck_payments_paid_states_have_money,
    DROP CONSTRAINT ck_payments_refunded_means_all;

CREATE FUNCTION payments_invariants() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    v_broken TEXT;
BEGIN
    -- The common case in one expression; IS NOT FALSE lets a NULL through, as a CHECK would.
    IF (NEW.amount > 0
        AND NEW.currency ~ '^[A-Z]{3}$'
        AND length(NEW.reference) >= 1
        AND NEW.capture_method IN ('automatic', 'manual')
        AND NEW.status IN ('PENDING', 'UNKNOWN', 'AUTHORIZED', 'CAPTURED', 'PARTIALLY_REFUNDED', 'REFUNDED',
                           'DISPUTED', 'CHARGED_BACK', 'DECLINED', 'FAILED', 'VOIDED', 'EXPIRED')
        AND NEW.amount_authorized >= 0 AND NEW.amount_captured >= 0 AND NEW.amount_capture_pending >= 0
        AND NEW.amount_released >= 0 AND NEW.amount_refunded >= 0 AND NEW.amount_refund_pending >= 0
        AND NEW.amount_disputed >= 0
        AND NEW.amount_authorized <= NEW.amount
        -- L7: captured ≤ authorized, counting what is reserved and what was released.
        AND NEW.amount_captured + NEW.amount_capture_pending + NEW.amount_released <= NEW.amount_authorized
        -- L7: refunded ≤ captured, counting refunds still in flight.
        AND NEW.amount_refunded + NEW.amount_refund_pending <= NEW.amount_captured
        AND (NEW.status NOT IN ('CAPTURED', 'PARTIALLY_REFUNDED', 'REFUNDED', 'DISPUTED', 'CHARGED_BACK')
             OR NEW.amount_captured > 0)
        AND (NEW.status <> 'REFUNDED' OR (NEW.amount_refunded = NEW.amount_captured AND NEW.amount_refund_pending = 0))
       ) IS NOT FALSE THEN
        RETURN NEW;
    END IF;
    v_broken := CASE
        WHEN (NEW.amount > 0) IS FALSE THEN 'payments_amount_check'
        WHEN (NEW.currency ~ '^[A-Z]{3}$') IS FALSE THEN 'payments_currency_check'
        WHEN (length(NEW.reference) >= 1) IS FALSE THEN 'payments_reference_check'
        WHEN (NEW.capture_method IN ('automatic', 'manual')) IS FALSE THEN 'payments_capture_method_check'
        WHEN (NEW.status IN ('PENDING', 'UNKNOWN', 'AUTHORIZED', 'CAPTURED', 'PARTIALLY_REFUNDED', 'REFUNDED',
                             'DISPUTED', 'CHARGED_BACK', 'DECLINED', 'FAILED', 'VOIDED', 'EXPIRED')) IS FALSE
            THEN 'payments_status_check'
        WHEN (NEW.amount_authorized >= 0 AND NEW.amount_captured >= 0 AND NEW.amount_capture_pending >= 0
              AND NEW.amount_released >= 0 AND NEW.amount_refunded >= 0 AND NEW.amount_refund_pending >= 0) IS FALSE
            THEN 'ck_payments_amounts_not_negative'
        WHEN (NEW.amount_disputed >= 0) IS FALSE THEN 'ck_payments_disputed_not_negative'
        WHEN (NEW.amount_authorized <= NEW.amount) IS FALSE THEN 'ck_payments_authorized_le_amount'
        WHEN (NEW.amount_captured + NEW.amount_capture_pending + NEW.amount_released <= NEW.amount_authorized) IS FALSE
            THEN 'ck_payments_captured_le_authorized'
        WHEN (NEW.amount_refunded + NEW.amount_refund_pending <= NEW.amount_captured) IS FALSE
            THEN 'ck_payments_refunded_le_captured'
        WHEN (NEW.status NOT IN ('CAPTURED', 'PARTIALLY_REFUNDED', 'REFUNDED', 'DISPUTED', 'CHARGED_BACK')
              OR NEW.amount_captured > 0) IS FALSE THEN 'ck_payments_paid_states_have_money'
        ELSE 'ck_payments_refunded_means_all'
    END;
    RAISE EXCEPTION 'new row for relation "payments" violates check constraint "%"', v_broken
        USING ERRCODE = 'check_violation', CONSTRAINT = v_broken, TABLE = 'payments',
              DETAIL = format('payment %s: status %s, amount %s, authorized %s, captured %s, capture pending %s, '
                              'released %s, refunded %s, refund pending %s, disputed %s', NEW.id, NEW.status,
                              NEW.amount, NEW.amount_authorized, NEW.amount_captured, NEW.amount_capture_pending,
                              NEW.amount_released, NEW.amount_refunded, NEW.amount_refund_pending,
                              NEW.amount_disputed);
END
$$;

CREATE TRIGGER payments_invariants BEFORE INSERT OR UPDATE ON payments
    FOR EACH ROW EXECUTE FUNCTION payments_invariants();

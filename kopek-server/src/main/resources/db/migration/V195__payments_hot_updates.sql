-- HOT updates on payments (issue 25, section 3). PostgreSQL updates a row in place on its page, without a new entry
-- in every index (a heap-only tuple), only when no column that any index names (key, expression or predicate)
-- changes value and the page has room. Every payments index but the primary key and provider_key named a column
-- that the captures and refunds change, so every one of their updates wrote all seven indexes again:
--   status            (ux_payments_intent_single_live_attempt and ix_payments_expiring predicates): each transition;
--   amount_captured   (ix_payments_settled_charge predicate): each capture that settles.
-- The indexes below keep their names, their rows and the queries they serve; they stop naming those columns.

-- Room on each page for the updated versions of its rows: a HOT update needs it on the same page. Set first, so the
-- rewrite below leaves that room on the pages of the rows already there.
ALTER TABLE payments SET (fillfactor = 85);

-- The one-live-attempt law (L2) reads "live" from a stored generated column: it changes only when an attempt ends
-- (declined, failed, voided, expired), while status changes on every capture and refund. The unique index is the
-- same set of rows as before, so the law and the 409 intent_has_live_attempt (PaymentStore.LIVE_ATTEMPT_INDEX) hold.
-- Adding a stored column rewrites the table once, under an exclusive lock: on a large table, run this migration in a
-- maintenance window.
ALTER TABLE payments
    ADD COLUMN live_attempt boolean NOT NULL
        GENERATED ALWAYS AS (status NOT IN ('DECLINED', 'FAILED', 'VOIDED', 'EXPIRED')) STORED;
DROP INDEX ux_payments_intent_single_live_attempt;
CREATE UNIQUE INDEX ux_payments_intent_single_live_attempt ON payments (merchant_id, reference) WHERE live_attempt;

-- The expiry scan (PaymentStore.findExpired) keeps its status filter, which PostgreSQL checks on the rows the index
-- gives, so the index needs no status of its own. Kopek's own void and expiry finalize the hold (capture_finalized)
-- and leave the index as before; a hold that a PSP notification ends without finalizing stays in it and is filtered
-- out by that status condition, a rare row against a HOT capture and refund.
DROP INDEX ix_payments_expiring;
CREATE INDEX ix_payments_expiring ON payments (capture_before)
    WHERE capture_before IS NOT NULL AND NOT capture_finalized;

-- Settlement matching (BreakMatcher: settled charges by the time they moved) keeps amount_captured > 0 in its
-- query, which PostgreSQL checks on the rows the index gives; the index only needs what does not change later.
DROP INDEX ix_payments_settled_charge;
CREATE INDEX ix_payments_settled_charge ON payments (created_at)
    WHERE capture_method = 'automatic' AND psp_reference IS NOT NULL;

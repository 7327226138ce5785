-- The running sums of the production audit's balances_equal_entries check (issue 26; docs/invariants.md), which
-- compares every account's balance with its entries at a cost per slice bounded by the slice, whatever the length
-- of the journal or the size of the biggest merchant. A pass has three phases, each walked a slice at a time:
--   1. targets: per account, its projected totals and the projection's mark, read in one snapshot (the projector
--      moves both in one transaction, so they agree: the totals are the entries of journal transactions below it);
--   2. the walk: the journal in (tx_xid, id) order, below the highest mark of phase 1; each entry is added to its
--      account's sums here when its transaction is below that account's own mark;
--   3. the verdict: per account, the sums against the targets.
-- Phase 1 starts every pass afresh (sums at zero), so a pass builds its sums from the first journal transaction:
-- nothing carries a mistake or a tampered entry from one pass into the next, and a database of any age, new or
-- upgraded, needs no base. The auditor writes this table on the primary, in the transaction that moves the check's
-- cursor, so the sums and the cursor move together; the slices' reads may be on a replica and never read it.
CREATE TABLE ledger_audit_sums (
    account_id     BIGINT PRIMARY KEY,         -- an account (no foreign key: accounts are never deleted)
    mark           BIGINT NOT NULL,            -- projected_below when the targets were read
    target_debits  BIGINT NOT NULL,            -- the projected totals at the mark
    target_credits BIGINT NOT NULL,
    debits         BIGINT NOT NULL DEFAULT 0,  -- the entries walked so far of journal transactions below the mark
    credits        BIGINT NOT NULL DEFAULT 0
);

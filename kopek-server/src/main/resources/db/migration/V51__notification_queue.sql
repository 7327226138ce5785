-- The PSP-notification retry queue (issue 10, defects 4 and 7). Before: the retry pass read the oldest 100 waiting
-- rows without claiming them, so a head of rows that always fail or never match was retried forever and starved
-- everything behind it, and two passes (or a pass and the request applying the same notification) could apply one
-- notification at once.
--
-- Now each waiting row carries its tries and the earliest time the next try may start. The retry pass claims rows
-- with one UPDATE … FOR UPDATE SKIP LOCKED that also pushes next_try_at forward (a lease while it works, then the
-- backoff), and takes them in next_try_at order: a row that keeps failing moves further back each time, so it can
-- never starve the rest. After kopek.notifications.max-tries tries it is dead-lettered: outcome 'dead', a metric and a
-- manual-review item (subject 'notification').
ALTER TABLE psp_notifications
    ADD COLUMN tries       INT         NOT NULL DEFAULT 0 CHECK (tries >= 0),  -- applications attempted so far
    ADD COLUMN next_try_at TIMESTAMPTZ;                                         -- null once nothing is left to do

ALTER TABLE psp_notifications DROP CONSTRAINT psp_notifications_outcome_check;
ALTER TABLE psp_notifications ADD CONSTRAINT psp_notifications_outcome_check
    CHECK (outcome IN ('applied', 'ignored', 'conflict', 'unmatched', 'dead'));

-- Rows waiting today become due at once, oldest first.
UPDATE psp_notifications SET next_try_at = received_at WHERE processed_at IS NULL OR outcome = 'unmatched';

DROP INDEX ix_psp_notifications_waiting;
CREATE INDEX ix_psp_notifications_due ON psp_notifications (next_try_at)
    WHERE processed_at IS NULL OR outcome = 'unmatched';

-- Authorization holds are released at expiry also for payments refunded or disputed after a partial capture
-- (defect 7): the expiry scan covers every state that may still hold an uncaptured rest.
DROP INDEX ix_payments_expiring;
CREATE INDEX ix_payments_expiring ON payments (capture_before)
    WHERE status IN ('AUTHORIZED', 'CAPTURED', 'PARTIALLY_REFUNDED', 'REFUNDED', 'DISPUTED', 'CHARGED_BACK')
      AND capture_before IS NOT NULL AND NOT capture_finalized;

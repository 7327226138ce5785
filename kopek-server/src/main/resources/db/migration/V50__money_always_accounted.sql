-- Money always accounted (issue 10, section 2; docs/ledger.md "Chargebacks that overlap refunds").
--
-- A chargeback is a fact the PSP reports after it has already taken the money back: Kopek must record and post
-- it whatever the payment's state. V3 bounded amount_disputed + amount_refunded by amount_captured, so a dispute
-- on a refunded payment, a second dispute, a full-amount dispute after a partial refund, or a refund the PSP
-- confirmed while a dispute was open rolled back, and the money it moved was known to nobody.
--
-- What the CHECKs express from now on:
--   * L7 for what KOPEK decides stays a hard rule: captured ≤ authorized, and refunds (confirmed plus reserved)
--     ≤ captured (ck_payments_captured_le_authorized, ck_payments_refunded_le_captured). A refund is only ever
--     reserved against what is neither refunded nor disputed (the reservation's WHERE clause).
--   * What the PSP REPORTS is recorded as it is: amount_disputed is only non-negative. The overlap
--     amount_disputed + amount_refunded − amount_captured, when positive, is money the merchant lost twice
--     (refunded, then charged back as well). It is recorded, posted to the ledger, and opens a manual-review item
--     ('exposure', one per dispute or refund that caused it) so that a person takes it up with the PSP; it is
--     never refused.
ALTER TABLE payments DROP CONSTRAINT ck_payments_disputed_le_captured;
ALTER TABLE payments ADD CONSTRAINT ck_payments_disputed_not_negative CHECK (amount_disputed >= 0);

-- Review items now cover every kind of subject a person may have to decide:
--   payment, capture, void, refund  an unknown outcome past the PSP's key window (as before);
--   exposure                        a chargeback overlapping a refund (subject_id: the dispute or the refund);
--   notification                    a PSP notification that could not be applied after the allowed tries
--                                   (subject_id: psp_notifications.id; it may name no known payment or merchant).
ALTER TABLE manual_reviews DROP CONSTRAINT manual_reviews_subject_check;
ALTER TABLE manual_reviews ADD CONSTRAINT manual_reviews_subject_check
    CHECK (subject IN ('payment', 'capture', 'void', 'refund', 'exposure', 'notification'));
ALTER TABLE manual_reviews ALTER COLUMN merchant_id DROP NOT NULL;
ALTER TABLE manual_reviews ALTER COLUMN payment_id DROP NOT NULL;
ALTER TABLE manual_reviews ADD CONSTRAINT ck_manual_reviews_owner
    CHECK (subject = 'notification' OR (merchant_id IS NOT NULL AND payment_id IS NOT NULL));

-- A person's decision, per subject: a payment was 'captured', only 'authorized', or 'failed'; a capture, void or
-- refund 'succeeded' or 'failed'; an exposure or a notification is 'acknowledged' (handled outside Kopek).
ALTER TABLE manual_reviews DROP CONSTRAINT manual_reviews_resolution_check;
ALTER TABLE manual_reviews ADD CONSTRAINT manual_reviews_resolution_check
    CHECK (resolution IN ('captured', 'authorized', 'failed', 'succeeded', 'acknowledged'));

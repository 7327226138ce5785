-- Inquiries (issue 15): a card issuer asking about a payment before, or instead of, a chargeback. Stripe reports one
-- as a dispute whose status is warning_needs_response, warning_under_review or warning_closed; no money has been
-- withdrawn, the payment can still be refunded, and most inquiries close without becoming a dispute. So an inquiry
-- is not a row of disputes (every dispute row is a chargeback that moved money: balances, ledger, settlement
-- matching): it is recorded here, moves nothing, and is closed by the PSP's closing event. When the issuer
-- escalates it, the chargeback is recorded in disputes as any other, and the inquiry says ESCALATED.
CREATE TABLE dispute_inquiries (
    id              UUID         PRIMARY KEY,
    payment_id      UUID         NOT NULL REFERENCES payments (id),
    merchant_id     UUID         NOT NULL REFERENCES merchants (id),
    psp_dispute_id  VARCHAR(128) NOT NULL,   -- the PSP's dispute object (dp_… at Stripe); kept if it escalates
    amount          BIGINT       NOT NULL CHECK (amount > 0),
    currency        CHAR(3)      NOT NULL,
    reason          VARCHAR(200),
    status          TEXT         NOT NULL,
    version         INT          NOT NULL DEFAULT 0,
    created_at      TIMESTAMPTZ  NOT NULL,
    updated_at      TIMESTAMPTZ  NOT NULL,
    -- OPEN: the issuer waits for the merchant's answer or is reviewing it; CLOSED: it ended without a chargeback;
    -- ESCALATED: it became a chargeback, recorded in disputes under the same PSP dispute id. Only OPEN moves on.
    CONSTRAINT ck_dispute_inquiries_status CHECK (status IN ('OPEN', 'CLOSED', 'ESCALATED')),
    CONSTRAINT uq_dispute_inquiries_psp UNIQUE (psp_dispute_id)
);
CREATE INDEX ix_dispute_inquiries_payment ON dispute_inquiries (payment_id);

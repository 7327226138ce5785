-- What a PSP named its object for a provider key when Kopek could not learn the outcome (issue 15): a Stripe
-- PaymentIntent that requires 3-D Secure, or answered "processing". A lookup after a restart retrieves that object by
-- id instead of searching Stripe by metadata, whose index lags (an empty search proves nothing). Only unknown
-- outcomes are written: a final one is on the payment itself (payments.psp_reference).
CREATE TABLE psp_references (
    provider_key   VARCHAR(128) PRIMARY KEY,
    provider       VARCHAR(40)  NOT NULL,
    psp_reference  VARCHAR(128) NOT NULL,
    learned_at     TIMESTAMPTZ  NOT NULL
);

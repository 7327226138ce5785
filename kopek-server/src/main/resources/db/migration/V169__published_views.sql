-- Views each module publishes for the others to read (issue 23): a module's SQL names only its own tables, and
-- reads another module's data through that module's API or through a view the owner publishes here. The owner
-- answers for a view's columns as for any API: PostgreSQL fixes a view's column list when it is created (a * is
-- expanded then), so a column added to a table later is not published until its owner recreates the view, and a
-- column a view publishes cannot be dropped or retyped without the owner changing the view in the same migration.
-- Each view's COMMENT names its owner; SqlBoundaryTest reads it. Simple views over one table or a join: PostgreSQL
-- plans a query on them exactly as the same query on the tables.

-- payments
CREATE VIEW published_payments AS SELECT * FROM payments;
COMMENT ON VIEW published_payments IS
    'Published by the payments module: every payment attempt as stored, for the console, reconciliation, disputes '
    'and the PSP module (which merchants have payments, at which PSP account).';
CREATE VIEW published_payment_operations AS SELECT * FROM payment_operations;
COMMENT ON VIEW published_payment_operations IS
    'Published by the payments module: captures, voids and refunds as stored, for the console and reconciliation.';

-- idempotency
CREATE VIEW published_idempotency_keys AS SELECT * FROM idempotency_keys;
COMMENT ON VIEW published_idempotency_keys IS
    'Published by the idempotency module: keys, their state and stored answers, for the console''s payment story.';

-- merchants: names only, never keys.
CREATE VIEW published_merchants AS SELECT id, name, created_at FROM merchants;
COMMENT ON VIEW published_merchants IS
    'Published by the merchants module: a merchant''s id, name and creation time, for the console.';

-- disputes
CREATE VIEW published_disputes AS SELECT * FROM disputes;
COMMENT ON VIEW published_disputes IS
    'Published by the disputes module: chargebacks as stored, for the console and reconciliation.';

-- ledger
CREATE VIEW published_ledger_transactions AS SELECT * FROM ledger_transactions;
COMMENT ON VIEW published_ledger_transactions IS
    'Published by the ledger module: journal transactions, for the console''s payment story.';
CREATE VIEW published_ledger_entries AS SELECT * FROM ledger_entries;
COMMENT ON VIEW published_ledger_entries IS
    'Published by the ledger module: journal entries, for the console''s payment story.';
CREATE VIEW published_ledger_accounts AS SELECT * FROM ledger_accounts;
COMMENT ON VIEW published_ledger_accounts IS
    'Published by the ledger module: the accounts entries post to, for the console''s payment story.';

-- reconciliation
CREATE VIEW published_manual_reviews AS SELECT * FROM manual_reviews;
COMMENT ON VIEW published_manual_reviews IS
    'Published by the reconciliation module: what waits for a person, for the console.';
CREATE VIEW published_recon_breaks AS SELECT * FROM recon_breaks;
COMMENT ON VIEW published_recon_breaks IS
    'Published by the reconciliation module: settlement breaks, for the console.';
CREATE VIEW published_settlement_files AS SELECT * FROM settlement_files;
COMMENT ON VIEW published_settlement_files IS
    'Published by the reconciliation module: settlement files read, for the console.';
CREATE VIEW published_settlement_runs AS SELECT * FROM settlement_runs;
COMMENT ON VIEW published_settlement_runs IS
    'Published by the reconciliation module: settlement runs, for the console.';

-- outbox: endpoints without their signing secrets.
CREATE VIEW published_outbox AS SELECT * FROM outbox;
COMMENT ON VIEW published_outbox IS
    'Published by the outbox module: events as written, for the console.';
CREATE VIEW published_webhook_deliveries AS SELECT * FROM webhook_deliveries;
COMMENT ON VIEW published_webhook_deliveries IS
    'Published by the outbox module: webhook deliveries, for the console.';
CREATE VIEW published_webhook_endpoints AS
    SELECT id, merchant_id, url, event_types, status, version, failing_since, disabled_reason, created_at, updated_at
      FROM webhook_endpoints;
COMMENT ON VIEW published_webhook_endpoints IS
    'Published by the outbox module: merchants'' webhook endpoints without their secrets, for the console.';

-- psp
CREATE VIEW published_psp_calls AS SELECT * FROM psp_calls;
COMMENT ON VIEW published_psp_calls IS
    'Published by the psp module: the PSP call log, for the console''s payment story.';

-- notifications
CREATE VIEW published_psp_notifications AS SELECT * FROM psp_notifications;
COMMENT ON VIEW published_psp_notifications IS
    'Published by the notifications module: PSP notifications as received, for the console.';

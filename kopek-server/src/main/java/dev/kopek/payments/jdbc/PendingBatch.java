package dev.kopek.payments.jdbc;

import dev.kopek.merchants.Merchants;
import dev.kopek.money.MerchantId;
import dev.kopek.money.PaymentId;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentRequest;
import dev.kopek.platform.Db;
import dev.kopek.platform.SqlPart;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Phase 1 of many new payments in one statement, one commit: {@link PaymentStore#claimAndInsertPending} with every
 * part given as arrays, one element per payment, unnested by PostgreSQL. What a statement and a commit cost the
 * database (executor start-up over each table's indexes, plan checks, the WAL flush) is then paid once per batch.
 * Each payment goes in only if its own key's claim did; the rest of the batch is unaffected. A second live attempt
 * of an intent (L2) fails the whole statement, as it fails the single one, and then nothing of it is written.
 */
@Repository
public class PendingBatch {

    private final JdbcClient jdbc;
    private final Clock clock;

    PendingBatch(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** The PENDING attempt as the batch will store it, for its created event rendered before the insert. */
    public Payment pending(
            PaymentId id, MerchantId merchant, PaymentRequest request, String idempotencyKey, String providerKey) {
        return PaymentStore.pendingRow(
                id,
                merchant,
                request,
                idempotencyKey,
                providerKey,
                Db.micros(clock.instant()),
                PaymentStore.metadataJson(request));
    }

    /**
     * Inserts each of {@code pending} whose key {@code claims} (the idempotency module's CTE named {@code claimed},
     * yielding the resource id of each key it inserted) claimed, with its event ({@code events}: CTEs appending an
     * event for each row of the CTE {@code payment}). The inserted attempts, by id; an absent one was not inserted
     * because its key exists.
     */
    public Map<PaymentId, Payment> claimAndInsertAll(SqlPart claims, List<Payment> pending, SqlPart events) {
        SqlPart accounts = Merchants.paymentsAccountsPart(
                pending.stream().map(Payment::merchant).toList());
        Map<String, Object> params = rowParams(pending);
        params.putAll(claims.params());
        params.putAll(accounts.params());
        params.putAll(events.params());
        Map<PaymentId, Payment> inserted = new HashMap<>();
        jdbc.sql("WITH " + claims.sql() + ", " + accounts.sql() + ",\npayment AS (\n" + INSERT_ALL + ")," + events.sql()
                        + "\nSELECT * FROM payment")
                .params(params)
                .query(PaymentStore::map)
                .list()
                .forEach(p -> inserted.put(p.id(), p));
        return inserted;
    }

    // The payment's account is that of its merchant's row, locked by the CTE account (see claimAndInsertPending).
    private static final String INSERT_ALL = """
            INSERT INTO payments (id, merchant_id, reference, idempotency_key, provider_key, amount, currency,
                                  payment_method, capture_method, description, metadata, status,
                                  created_at, updated_at, psp_account)
            SELECT r.id, r.merchant, r.reference, r.key, r.provider_key, r.amount, r.currency, r.method, r.capture,
                   r.description, CAST(r.metadata AS jsonb), 'PENDING', r.now, r.now, a.psp_account
              FROM unnest(CAST(:rows_id AS uuid[]), CAST(:rows_merchant AS uuid[]), CAST(:rows_reference AS text[]),
                          CAST(:rows_key AS text[]), CAST(:rows_providerKey AS text[]), CAST(:rows_amount AS bigint[]),
                          CAST(:rows_currency AS text[]), CAST(:rows_method AS text[]), CAST(:rows_capture AS text[]),
                          CAST(:rows_description AS text[]), CAST(:rows_metadata AS text[]),
                          CAST(:rows_now AS timestamptz[]))
                   AS r(id, merchant, reference, key, provider_key, amount, currency, method, capture, description,
                        metadata, now)
              JOIN claimed c ON c.resource_id = r.id
              LEFT JOIN account a ON a.id = r.merchant
            RETURNING *
            """;

    private static Map<String, Object> rowParams(List<Payment> pending) {
        int n = pending.size();
        UUID[] ids = new UUID[n];
        UUID[] merchants = new UUID[n];
        String[] references = new String[n];
        String[] keys = new String[n];
        String[] providerKeys = new String[n];
        long[] amounts = new long[n];
        String[] currencies = new String[n];
        String[] methods = new String[n];
        String[] captures = new String[n];
        String[] descriptions = new String[n];
        String[] metadata = new String[n];
        String[] nows = new String[n];
        for (int i = 0; i < n; i++) {
            Payment p = pending.get(i);
            ids[i] = p.id().value();
            merchants[i] = p.merchant().value();
            references[i] = p.reference();
            keys[i] = p.idempotencyKey();
            providerKeys[i] = p.providerKey();
            amounts[i] = p.amount().minor();
            currencies[i] = p.amount().currency().code();
            methods[i] = p.paymentMethod();
            captures[i] = p.captureMethod();
            descriptions[i] = p.description();
            metadata[i] = p.metadataJson();
            nows[i] = p.createdAt().toString(); // ISO-8601 text of a microsecond instant: nothing rounded
        }
        Map<String, Object> params = new HashMap<>();
        params.put("rows_id", ids);
        params.put("rows_merchant", merchants);
        params.put("rows_reference", references);
        params.put("rows_key", keys);
        params.put("rows_providerKey", providerKeys);
        params.put("rows_amount", amounts);
        params.put("rows_currency", currencies);
        params.put("rows_method", methods);
        params.put("rows_capture", captures);
        params.put("rows_description", descriptions);
        params.put("rows_metadata", metadata);
        params.put("rows_now", nows);
        return params;
    }
}

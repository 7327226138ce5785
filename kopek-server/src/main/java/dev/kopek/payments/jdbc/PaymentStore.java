package dev.kopek.payments.jdbc;

import dev.kopek.merchants.Merchants;
import dev.kopek.money.CurrencyCode;
import dev.kopek.money.MerchantId;
import dev.kopek.money.Money;
import dev.kopek.money.PaymentId;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentRequest;
import dev.kopek.payments.domain.PaymentStatus;
import dev.kopek.platform.Db;
import dev.kopek.platform.SqlPart;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

/**
 * The payments table. Status changes are compare-and-set on the state machine's predecessors; amount changes
 * are conditional UPDATEs whose WHERE clause is the rule (L7), backed by CHECK constraints.
 */
@Repository
public class PaymentStore {

    public static final String LIVE_ATTEMPT_INDEX = "ux_payments_intent_single_live_attempt";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int MAX_LIST = 100;
    // The status guards of the conditional UPDATEs come from the domain's sets (PaymentStatus), written into the
    // SQL as literals: the statements' text stays constant, and no guard is a second list kept by hand.
    static final String CAPTURABLE_STATES = inList(PaymentStatus.CAPTURABLE);
    static final String VOIDABLE_STATES = inList(PaymentStatus.VOIDABLE);
    static final String REFUNDABLE_STATES = inList(PaymentStatus.REFUNDABLE);
    private static final String HOLDING_STATES = inList(PaymentStatus.HOLDING);

    private final JdbcClient jdbc;
    private final Clock clock;

    PaymentStore(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /**
     * Inserts the PENDING attempt; the partial unique index refuses a second live attempt for the intent (L2). It
     * records the PSP account the merchant's new payments go to now ({@code psp_account}, V141, kept on the merchant's
     * row by V166): the caller claimed the key first in this transaction, and that insert's foreign-key check holds
     * the merchant's row, so a change of the merchant's PSP either committed before this statement began or waits
     * for this transaction and then sees the payment.
     */
    public Payment insertPending(
            PaymentId id, MerchantId merchant, PaymentRequest request, String idempotencyKey, String providerKey) {
        // The merchants module's part locks the row FOR KEY SHARE, which this transaction already holds.
        SqlPart account = Merchants.paymentsAccountPart(merchant);
        Map<String, Object> params = pendingParams(
                id, merchant, request, idempotencyKey, providerKey, Db.micros(clock.instant()), metadataJson(request));
        params.putAll(account.params());
        return jdbc.sql("WITH " + account.sql() + "\n"
                        + PENDING.formatted(
                                "VALUES (" + PENDING_VALUES.formatted("(SELECT psp_account FROM account)") + ")")
                        + " RETURNING *")
                .params(params)
                .query(PaymentStore::map)
                .single();
    }

    /**
     * All of phase 1 in one statement, for autocommit: the key's claim ({@code claim}, a CTE named {@code claimed}),
     * the PENDING attempt and its {@code payment.created} event ({@code created}, given the attempt as it will be
     * stored), each only if the claim inserted the key. Empty when the key exists: nothing was written, and the
     * caller decides with the key's state. A second live attempt of the intent (L2) fails the whole statement.
     *
     * <p>The PSP account is read from the merchant's row locked {@code FOR KEY SHARE}: a statement reads its tables
     * in a snapshot taken when it began, but a row it locks after waiting for a concurrent writer is the row as that
     * writer left it (READ COMMITTED). A change of the merchant's PSP locks that row {@code FOR UPDATE} and writes
     * the account to it ({@code MerchantPspStore}), so it either committed before this lock (and the payment records
     * the new account) or waits for this statement and then sees the payment.
     */
    public Optional<Payment> claimAndInsertPending(
            SqlPart claim,
            PaymentId id,
            MerchantId merchant,
            PaymentRequest request,
            String idempotencyKey,
            String providerKey,
            Function<Payment, SqlPart> created) {
        Instant now = Db.micros(clock.instant());
        String metadata = metadataJson(request);
        Payment pending = pendingRow(id, merchant, request, idempotencyKey, providerKey, now, metadata);
        SqlPart event = created.apply(pending);
        SqlPart account = Merchants.paymentsAccountPart(merchant);
        Map<String, Object> params = pendingParams(id, merchant, request, idempotencyKey, providerKey, now, metadata);
        params.putAll(claim.params());
        params.putAll(account.params());
        params.putAll(event.params());
        return jdbc.sql("WITH " + claim.sql() + ", " + account.sql() + ",\n" + """
                payment AS (
                """
                        + PENDING.formatted("SELECT " + PENDING_VALUES.formatted("(SELECT psp_account FROM account)")
                                + " FROM claimed")
                        + """
                    RETURNING *
                ),""" + event.sql() + "\nSELECT * FROM payment")
                .params(params)
                .query(PaymentStore::map)
                .optional();
    }

    /** The PENDING attempt as its insert will store it, rendered before the insert for its created event. */
    static Payment pendingRow(
            PaymentId id,
            MerchantId merchant,
            PaymentRequest request,
            String idempotencyKey,
            String providerKey,
            Instant now,
            String metadata) {
        return new Payment(
                id,
                merchant,
                request.reference(),
                idempotencyKey,
                providerKey,
                request.amount(),
                new Payment.Amounts(0, 0, 0, 0, 0, 0, 0),
                request.paymentMethod(),
                request.captureMethod(),
                request.description(),
                metadata,
                PaymentStatus.PENDING,
                0,
                null,
                null,
                null,
                null,
                false,
                now,
                now,
                null,
                null);
    }

    private static final String PENDING = """
            INSERT INTO payments (id, merchant_id, reference, idempotency_key, provider_key, amount, currency,
                                  payment_method, capture_method, description, metadata, status,
                                  created_at, updated_at, psp_account)
            %s
            """;
    private static final String PENDING_VALUES = """
            CAST(:id AS uuid), CAST(:merchant AS uuid), :reference, :key, :providerKey, :amount, :currency, :method,
            :capture, :description, CAST(:metadata AS JSONB), 'PENDING', CAST(:now AS timestamptz),
            CAST(:now AS timestamptz), %s""";

    private static Map<String, Object> pendingParams(
            PaymentId id,
            MerchantId merchant,
            PaymentRequest request,
            String idempotencyKey,
            String providerKey,
            Instant now,
            String metadataJson) {
        Map<String, Object> params = new HashMap<>();
        params.put("id", id.value());
        params.put("merchant", merchant.value());
        params.put("reference", request.reference());
        params.put("key", idempotencyKey);
        params.put("providerKey", providerKey);
        params.put("amount", request.amount().minor());
        params.put("currency", request.amount().currency().code());
        params.put("method", request.paymentMethod());
        params.put("capture", request.captureMethod());
        params.put("description", request.description());
        params.put("metadata", metadataJson);
        params.put("now", Db.at(now));
        return params;
    }

    /** The request's metadata as JSON, its keys in the order jsonb keeps them; null without metadata. */
    static String metadataJson(PaymentRequest request) {
        return request.metadata() == null ? null : JSON.writeValueAsString(inJsonbOrder(request.metadata()));
    }

    /**
     * Metadata's keys as {@code jsonb} stores and returns them (shorter keys first, then by their UTF-8 bytes), so the
     * attempt rendered before its insert shows its metadata as every later read of the row will.
     */
    static Map<String, String> inJsonbOrder(Map<String, String> metadata) {
        Map<String, String> ordered =
                new TreeMap<>(Comparator.comparingInt((String key) -> key.getBytes(StandardCharsets.UTF_8).length)
                        .thenComparing(key -> key.getBytes(StandardCharsets.UTF_8), java.util.Arrays::compareUnsigned));
        ordered.putAll(metadata);
        return ordered;
    }

    /** What phase 3 of a payment writes beside its status. */
    public record Outcome(String pspReference, String declineCode, String failureReason, Instant captureBefore) {}

    /** A transition made by the key's owner; {@code keyLeaseUntil} is the key's lease as it was locked. */
    public record Fenced(Payment payment, Instant keyLeaseUntil) {}

    /**
     * What phase 3 of a payment writes, once for the one-payment statement and the batch's: the status, its version
     * (raised only by a change of status), the amounts the outcome holds or captures, and the PSP's facts. Its
     * arguments, SQL expressions, are the next status, whether money is held, the time, the authorization's end, the
     * PSP's reference, the decline code and the failure reason.
     */
    private static final String MOVE = """
            status = %1$s, version = version + CASE WHEN status <> %1$s THEN 1 ELSE 0 END,
                   updated_at = %3$s, amount_authorized = CASE WHEN %2$s THEN amount ELSE amount_authorized END,
                   amount_captured = CASE WHEN %1$s = 'CAPTURED' THEN amount ELSE amount_captured END,
                   capture_finalized = capture_finalized OR %1$s = 'CAPTURED',
                   capture_before = COALESCE(%4$s, capture_before),
                   psp_reference = COALESCE(%5$s, psp_reference),
                   decline_code = %6$s, failure_reason = %7$s""";

    private static final String MOVE_ONE = """
            UPDATE payments
               SET %s
             WHERE id = :id AND status IN (:from) AND EXISTS (SELECT 1 FROM fence)
            RETURNING *, (SELECT lease_until FROM fence) AS fence_lease_until
            """.formatted(MOVE.formatted(
            ":next", ":held", ":now", ":captureBefore", ":pspReference", ":declineCode", ":failureReason"));

    /**
     * Records the PSP's outcome of the payment itself — authorized (amount held until {@code captureBefore}),
     * captured (authorized and captured in full), or a dead end — by the key's current owner, in one statement:
     * {@code fence} (the idempotency module's CTE named {@code fence}: the key row, locked, while this attempt owns
     * it) first, then the payment moves by compare-and-set from a predecessor of {@code next}. Empty when either
     * check fails; the caller tells a stale owner from an illegal move.
     */
    public Optional<Fenced> fencedTransition(SqlPart fence, PaymentId id, PaymentStatus next, Outcome outcome) {
        // The fence is an uncorrelated InitPlan, so PostgreSQL evaluates it (and takes the key row's lock) before it
        // reads the payment row: the lock order stays key, then payment, as everywhere else.
        var from = PaymentStatus.predecessorsOf(next).stream().map(Enum::name).toList();
        boolean moneyHeld = next == PaymentStatus.AUTHORIZED || next == PaymentStatus.CAPTURED;
        return jdbc.sql("WITH " + fence.sql() + "\n" + MOVE_ONE)
                .params(fence.params())
                .param("next", next.name())
                .param("held", moneyHeld)
                .param("now", Db.at(clock.instant()))
                .param("captureBefore", Db.at(outcome.captureBefore()))
                .param("pspReference", outcome.pspReference())
                .param("declineCode", outcome.declineCode())
                .param("failureReason", outcome.failureReason())
                .param("id", id.value())
                .param("from", from)
                .query((rs, row) -> new Fenced(map(rs, row), Db.instant(rs, "fence_lease_until")))
                .optional();
    }

    /** One payment's move in a batch of phase 3s: {@link #fencedTransition}'s arguments. */
    public record Transition(PaymentId id, PaymentStatus next, Outcome outcome) {}

    /**
     * {@link #fencedTransition} for many payments in one statement: {@code fence} is the idempotency module's CTE
     * named {@code fence} with a row ({@code resource_id}, {@code lease_until}) for each key whose owner may move its
     * payment. Every key of the fence is locked before any payment (the statement reads the fence whole first), so
     * the lock order stays key, then payment. The moved payments by id; an absent one moved nothing (its owner is
     * stale, its key parked, or its status outside the move's predecessors), and the caller decides it alone.
     */
    public Map<PaymentId, Fenced> fencedTransitionEach(SqlPart fence, List<Transition> transitions) {
        int n = transitions.size();
        UUID[] ids = new UUID[n];
        String[] nexts = new String[n];
        boolean[] held = new boolean[n];
        String[] captureBefore = new String[n];
        String[] pspReferences = new String[n];
        String[] declineCodes = new String[n];
        String[] failureReasons = new String[n];
        String[] from = new String[n];
        for (int i = 0; i < n; i++) {
            Transition t = transitions.get(i);
            ids[i] = t.id().value();
            nexts[i] = t.next().name();
            held[i] = t.next() == PaymentStatus.AUTHORIZED || t.next() == PaymentStatus.CAPTURED;
            captureBefore[i] = t.outcome().captureBefore() == null
                    ? null
                    : Db.micros(t.outcome().captureBefore()).toString();
            pspReferences[i] = t.outcome().pspReference();
            declineCodes[i] = t.outcome().declineCode();
            failureReasons[i] = t.outcome().failureReason();
            from[i] = PaymentStatus.predecessorsOf(t.next()).stream()
                    .map(Enum::name)
                    .collect(Collectors.joining(","));
        }
        Map<PaymentId, Fenced> moved = new HashMap<>();
        jdbc.sql("WITH " + fence.sql() + "\n" + MOVE_EACH)
                .params(fence.params())
                .param("mv_id", ids)
                .param("mv_next", nexts)
                .param("mv_held", held)
                .param("mv_captureBefore", captureBefore)
                .param("mv_pspReference", pspReferences)
                .param("mv_declineCode", declineCodes)
                .param("mv_failureReason", failureReasons)
                .param("mv_from", from)
                .param("now", Db.at(clock.instant()))
                .query((rs, row) -> new Fenced(map(rs, row), Db.instant(rs, "fence_lease_until")))
                .list()
                .forEach(f -> moved.put(f.payment().id(), f));
        return moved;
    }

    // The uncorrelated count of the fence is an InitPlan: it locks every key of the batch before the join reads a
    // payment. The names of the moves' columns differ from the payments' own, which MOVE names unqualified.
    private static final String MOVE_EACH = """
            UPDATE payments
               SET %s
              FROM unnest(CAST(:mv_id AS uuid[]), CAST(:mv_next AS text[]), CAST(:mv_held AS boolean[]),
                          CAST(:mv_captureBefore AS timestamptz[]), CAST(:mv_pspReference AS text[]),
                          CAST(:mv_declineCode AS text[]), CAST(:mv_failureReason AS text[]), CAST(:mv_from AS text[]))
                   AS m(m_id, m_next, m_held, m_capture_before, m_psp_reference, m_decline_code, m_failure_reason,
                        m_from)
              JOIN fence f ON f.resource_id = m.m_id
             WHERE payments.id = m.m_id AND payments.status = ANY (string_to_array(m.m_from, ','))
               AND (SELECT count(*) FROM fence) > 0
            RETURNING payments.*, f.lease_until AS fence_lease_until
            """.formatted(MOVE.formatted(
            "m.m_next",
            "m.m_held",
            "CAST(:now AS timestamptz)",
            "m.m_capture_before",
            "m.m_psp_reference",
            "m.m_decline_code",
            "m.m_failure_reason"));

    /**
     * Records what the customer must do for an UNKNOWN payment the PSP holds for them (3-D Secure), in the
     * transaction that marked it unknown. Entering requires_action is a change of its own (an event with its own
     * sequence), so the first time raises the version.
     */
    public Payment requireAction(PaymentId id, String nextActionJson) {
        return jdbc.sql("""
                UPDATE payments
                   SET next_action = CAST(:action AS jsonb),
                       version = version + CASE WHEN next_action IS NULL THEN 1 ELSE 0 END
                 WHERE id = :id AND status = 'UNKNOWN'
                RETURNING *
                """)
                .param("action", nextActionJson)
                .param("id", id.value())
                .query(PaymentStore::map)
                .optional()
                .orElseThrow(() -> new IllegalStateException("payment " + id + " left UNKNOWN in this transaction"));
    }

    /**
     * Records a change of a payment whose row this transaction has locked (its amounts moved): a new version, and
     * {@code next} if that is a legal move from where it stands.
     */
    public Payment moveTo(Payment locked, PaymentStatus next) {
        if (next == locked.status()) {
            return bumpVersion(locked.id());
        }
        locked.moveTo(next); // the domain refuses a move its table does not allow, before anything is written
        return jdbc.sql("""
                UPDATE payments SET status = :next, version = version + 1, updated_at = :now
                 WHERE id = :id AND status = :current
                RETURNING *
                """)
                .param("next", next.name())
                .param("now", Db.at(clock.instant()))
                .param("id", locked.id().value())
                .param("current", locked.status().name())
                .query(PaymentStore::map)
                .optional()
                .orElseThrow(() -> new IllegalStateException(locked.id() + " changed under its row lock"));
    }

    private Payment bumpVersion(PaymentId id) {
        return jdbc.sql("UPDATE payments SET version = version + 1, updated_at = :now WHERE id = :id RETURNING *")
                .param("now", Db.at(clock.instant()))
                .param("id", id.value())
                .query(PaymentStore::map)
                .single();
    }

    /**
     * Closes an authorization past its expiry: the uncaptured rest is released. Only when no capture is in flight,
     * since its outcome decides what the rest is.
     */
    public Optional<Payment> expire(PaymentId id) {
        return jdbc.sql("""
                UPDATE payments
                   SET amount_released = amount_authorized - amount_captured, capture_finalized = TRUE,
                       updated_at = :now
                 WHERE id = :id AND capture_before <= :now AND NOT capture_finalized AND amount_capture_pending = 0
                   AND status IN %s
                RETURNING *
                """.formatted(HOLDING_STATES))
                .param("now", Db.at(clock.instant()))
                .param("id", id.value())
                .query(PaymentStore::map)
                .optional();
    }

    /**
     * Runs {@code parts} (common table expressions of several modules) as one statement after the CTE
     * {@code source}, one row that makes them write, and says whether the CTE {@code required} wrote its one row.
     */
    public boolean writeAfter(String source, SqlPart parts, String required) {
        return jdbc.sql("WITH " + source + " AS (SELECT 1),\n" + parts.sql() + "\nSELECT count(*) FROM " + required)
                        .params(parts.params())
                        .query(Long.class)
                        .single()
                == 1;
    }

    /**
     * Authorizations past their expiry that {@link #expire} can close now, oldest first. The same conditions as
     * {@link #expire}'s: one whose capture is still in flight waits for it, and must not take a place in the batch, or
     * a batch of them (a PSP outage during captures) would hide every other expired hold for good.
     */
    public List<PaymentId> findExpired(int limit) {
        return jdbc
                .sql("""
                SELECT id FROM payments
                 WHERE capture_before <= :now AND NOT capture_finalized AND amount_capture_pending = 0
                   AND status IN %s
                 ORDER BY capture_before LIMIT :limit
                """.formatted(HOLDING_STATES))
                .param("now", Db.at(clock.instant()))
                .param("limit", limit)
                .query(UUID.class)
                .list()
                .stream()
                .map(PaymentId::new)
                .toList();
    }

    public Optional<Payment> findByProviderKey(String providerKey) {
        return jdbc.sql("SELECT * FROM payments WHERE provider_key = :key")
                .param("key", providerKey)
                .query(PaymentStore::map)
                .optional();
    }

    /** Every payment carrying this PSP reference: one per PSP account at most, but accounts may coincide. */
    public List<Payment> findByPspReference(String pspReference) {
        return jdbc.sql("SELECT * FROM payments WHERE psp_reference = :ref LIMIT 100")
                .param("ref", pspReference)
                .query(PaymentStore::map)
                .list();
    }

    /**
     * A dispute withdrew {@code amount} (or, {@code won}, gave it back): the amount changes whatever the
     * payment's state, since the PSP already moved the money. Locks the row; the caller then moves the status.
     */
    public Payment changeDisputed(PaymentId id, long amount, boolean opened) {
        return jdbc.sql("""
                UPDATE payments
                   SET amount_disputed = amount_disputed + CASE WHEN :opened THEN :amount ELSE -:amount END,
                       updated_at = :now
                 WHERE id = :id
                RETURNING *
                """)
                .param("opened", opened)
                .param("amount", amount)
                .param("now", Db.at(clock.instant()))
                .param("id", id.value())
                .query(PaymentStore::map)
                .single();
    }

    /** Locks the payment's row for the rest of the transaction. */
    public Payment lock(PaymentId id) {
        return jdbc.sql("SELECT * FROM payments WHERE id = :id FOR UPDATE")
                .param("id", id.value())
                .query(PaymentStore::map)
                .single();
    }

    public Optional<Payment> find(PaymentId id) {
        return jdbc.sql("SELECT * FROM payments WHERE id = :id")
                .param("id", id.value())
                .query(PaymentStore::map)
                .optional();
    }

    /** Merchant-scoped: another merchant's payment is indistinguishable from one that does not exist (L11). */
    public Optional<Payment> find(MerchantId merchant, PaymentId id) {
        return jdbc.sql("SELECT * FROM payments WHERE id = :id AND merchant_id = :merchant")
                .param("id", id.value())
                .param("merchant", merchant.value())
                .query(PaymentStore::map)
                .optional();
    }

    public List<Payment> findByReference(MerchantId merchant, String reference) {
        return jdbc.sql("""
                SELECT * FROM payments WHERE merchant_id = :merchant AND reference = :reference
                 ORDER BY created_at DESC, id DESC LIMIT :limit
                """)
                .param("merchant", merchant.value())
                .param("reference", reference)
                .param("limit", MAX_LIST)
                .query(PaymentStore::map)
                .list();
    }

    /** {@code ('A', 'B')} in the enum's order: a status guard as SQL literals, from names no client chooses. */
    static String inList(Set<PaymentStatus> states) {
        return states.stream().sorted().map(s -> "'" + s.name() + "'").collect(Collectors.joining(", ", "(", ")"));
    }

    static Payment map(ResultSet rs, int row) throws SQLException {
        var amounts = new Payment.Amounts(
                rs.getLong("amount_authorized"),
                rs.getLong("amount_captured"),
                rs.getLong("amount_capture_pending"),
                rs.getLong("amount_released"),
                rs.getLong("amount_refunded"),
                rs.getLong("amount_refund_pending"),
                rs.getLong("amount_disputed"));
        return new Payment(
                new PaymentId(rs.getObject("id", UUID.class)),
                new MerchantId(rs.getObject("merchant_id", UUID.class)),
                rs.getString("reference"),
                rs.getString("idempotency_key"),
                rs.getString("provider_key"),
                new Money(rs.getLong("amount"), CurrencyCode.of(rs.getString("currency"))),
                amounts,
                rs.getString("payment_method"),
                rs.getString("capture_method"),
                rs.getString("description"),
                rs.getString("metadata"),
                PaymentStatus.valueOf(rs.getString("status")),
                rs.getInt("version"),
                rs.getString("psp_reference"),
                rs.getString("decline_code"),
                rs.getString("failure_reason"),
                Db.instant(rs, "capture_before"),
                rs.getBoolean("capture_finalized"),
                Db.instant(rs, "created_at"),
                Db.instant(rs, "updated_at"),
                rs.getString("next_action"),
                rs.getString("psp_account"));
    }
}

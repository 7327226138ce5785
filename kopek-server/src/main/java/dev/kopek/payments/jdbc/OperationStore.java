package dev.kopek.payments.jdbc;

import dev.kopek.money.CurrencyCode;
import dev.kopek.money.MerchantId;
import dev.kopek.money.Money;
import dev.kopek.money.PaymentId;
import dev.kopek.payments.domain.OperationKind;
import dev.kopek.payments.domain.OperationStatus;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentOperation;
import dev.kopek.platform.Db;
import dev.kopek.platform.SqlPart;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Captures, voids and refunds: one table. Their status only moves forward, PENDING or UNKNOWN to a final state, by
 * compare-and-set; the version (the event sequence) moves only with the status.
 */
@Repository
public class OperationStore {

    private static final int MAX_LIST = 100;

    private final JdbcClient jdbc;
    private final Clock clock;

    OperationStore(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** What phase 1 reserved, as a new PENDING operation. */
    public record NewOperation(
            UUID id,
            PaymentId payment,
            MerchantId merchant,
            OperationKind kind,
            Money amount,
            boolean finalCapture,
            String reason,
            String providerKey) {}

    public PaymentOperation insert(NewOperation op) {
        return jdbc.sql(INSERT.formatted("VALUES (" + INSERT_VALUES + ")"))
                .params(insertParams(op, clock.instant()))
                .query(OperationStore::map)
                .single();
    }

    private static final String INSERT = """
            INSERT INTO payment_operations (id, payment_id, merchant_id, kind, amount, currency, final, reason,
                                            status, provider_key, created_at, updated_at)
            %s
            RETURNING *
            """;
    private static final String INSERT_VALUES = """
            CAST(:op_id AS uuid), CAST(:op_payment AS uuid), CAST(:op_merchant AS uuid), :op_kind,
            CAST(:op_amount AS bigint), :op_currency, CAST(:op_final AS boolean), :op_reason, 'PENDING',
            :op_providerKey, CAST(:op_now AS timestamptz), CAST(:op_now AS timestamptz)""";

    private static Map<String, Object> insertParams(NewOperation op, Instant now) {
        Map<String, Object> params = new HashMap<>();
        params.put("op_id", op.id());
        params.put("op_payment", op.payment().value());
        params.put("op_merchant", op.merchant().value());
        params.put("op_kind", op.kind().apiName());
        params.put("op_amount", op.amount().minor());
        params.put("op_currency", op.amount().currency().code());
        params.put("op_final", op.finalCapture());
        params.put("op_reason", op.reason());
        params.put("op_providerKey", op.providerKey());
        params.put("op_now", Db.at(now));
        return params;
    }

    /**
     * Phase 1 of a capture, a void or a refund in one statement, in autocommit, for a key that is new: {@code free}
     * (the key's CTE {@code key_free}), {@code reserve} (the payment's reservation, the CTE {@code reserved}, which
     * requires {@code key_free}), the PENDING operation (the CTE {@code operation}), then what {@code after} adds
     * for it: the key's claim (the CTE {@code claimed}, made from {@code operation}), the created event written from
     * {@code claimed}, and whatever else the kind writes with it (a refund's posting and its run's key). Empty when
     * the key exists or the reservation does not fit: then nothing was written, and the transactional phase 1
     * decides.
     */
    public Optional<PaymentOperation> reserveAndInsert(
            SqlPart free, SqlPart reserve, NewOperation op, Function<PaymentOperation, List<SqlPart>> after) {
        Instant now = Db.micros(clock.instant());
        PaymentOperation pending = new PaymentOperation(
                op.id(),
                op.payment(),
                op.merchant(),
                op.kind(),
                op.amount().minor(),
                op.amount().currency(),
                op.finalCapture(),
                op.reason(),
                OperationStatus.PENDING,
                0,
                op.providerKey(),
                null,
                null,
                now,
                now);
        Map<String, Object> params = new HashMap<>(insertParams(op, now));
        params.putAll(free.params());
        params.putAll(reserve.params());
        StringBuilder sql = new StringBuilder("WITH ")
                .append(free.sql())
                .append(",\n")
                .append(reserve.sql())
                .append(",\noperation AS (")
                .append(INSERT.formatted("SELECT " + INSERT_VALUES + " FROM reserved"))
                .append(")");
        for (SqlPart part : after.apply(pending)) {
            sql.append(",\n").append(part.sql());
            params.putAll(part.params());
        }
        return jdbc.sql(sql.append("\nSELECT * FROM operation").toString())
                .params(params)
                .query(OperationStore::map)
                .optional();
    }

    /**
     * A move made by the key's owner; {@code keyLeaseUntil} is the key's lease as the fence locked it, and
     * {@code payment} the payment as the move's statement left it (null when the statement did not move it).
     */
    public record Fenced(PaymentOperation operation, Instant keyLeaseUntil, Payment payment) {}

    /**
     * Writes {@code op}'s move to {@code next} ({@link PaymentOperation#moveTo}, which refuses an illegal one) as the
     * key's current owner, in one statement: {@code fence} (the idempotency module's CTE named {@code fence}: the key
     * row, locked, while this attempt owns it) first, then the compare-and-set on the predecessors its table names
     * (the CTE {@code moved}), then {@code payment} if given ({@link PaymentMoves}: the payment's side of the move,
     * made from {@code moved}). Empty when either check fails; the caller tells a stale owner from a row past them
     * already.
     */
    public Optional<Fenced> fencedTransition(
            SqlPart fence,
            PaymentOperation op,
            OperationStatus next,
            String pspReference,
            String reason,
            SqlPart payment) {
        PaymentOperation moved = op.moveTo(next, pspReference, reason);
        var from = OperationStatus.predecessorsOf(next).stream().map(Enum::name).toList();
        Map<String, Object> params = new HashMap<>(fence.params());
        String paymentSql = "";
        String paymentColumns = "";
        if (payment != null) {
            params.putAll(payment.params());
            paymentSql = ",\n" + payment.sql();
            paymentColumns = ", p.*";
        }
        // The fence is an uncorrelated InitPlan, so PostgreSQL takes the key row's lock before it reads the
        // operation's row, and the payment's UPDATE waits for the operation's: the lock order stays key, then
        // operation, then payment, as everywhere else.
        String sql = "WITH " + fence.sql() + """
                ,
                moved AS (
                    UPDATE payment_operations
                       SET status = :next, version = version + CASE WHEN status <> :next THEN 1 ELSE 0 END,
                           updated_at = :now,
                           psp_reference = COALESCE(:pspReference, psp_reference), failure_reason = :reason
                     WHERE id = :id AND status IN (:from) AND EXISTS (SELECT 1 FROM fence)
                    RETURNING *
                )""" + paymentSql
                + """

                SELECT %s, (SELECT lease_until FROM fence) AS fence_lease_until%s
                  FROM moved AS m%s
                """.formatted(
                                OPERATION_COLUMNS,
                                paymentColumns,
                                payment == null ? "" : " LEFT JOIN " + PaymentMoves.PAYMENT + " AS p ON TRUE");
        return jdbc.sql(sql)
                .params(params)
                .param("next", next.name())
                .param("now", Db.at(clock.instant()))
                .param("pspReference", moved.pspReference())
                .param("reason", moved.failureReason())
                .param("id", op.id())
                .param("from", from)
                .query((rs, row) -> new Fenced(
                        map(rs, "op_"),
                        Db.instant(rs, "fence_lease_until"),
                        payment == null || rs.getObject("id") == null ? null : PaymentStore.map(rs, row)))
                .optional();
    }

    /** One operation's final move in a batch: the operation as its attempt read it, and where it moves. */
    public record Transition(PaymentOperation operation, OperationStatus next, String pspReference, String reason) {}

    /**
     * {@link #fencedTransition} for many operations in one statement (a batch of phase 3s): {@code fence} (the
     * idempotency module's CTE named {@code fence} with a row, {@code resource_id} and {@code lease_until}, for each
     * key whose owner may move its operation, read whole before any operation is locked, so the lock order stays
     * key, then operation, then payment), each operation's compare-and-set on its predecessors (the CTE
     * {@code moved}), then {@code payments} ({@link PaymentMoves#moveEachPart}, made from {@code moved}). The moved
     * operations by id, each with the payment as the statement left it; an absent one moved nothing (its owner is
     * stale, its key parked, or its status outside the move's predecessors), and the caller decides it alone.
     */
    public Map<UUID, Fenced> fencedTransitionEach(SqlPart fence, List<Transition> transitions, SqlPart payments) {
        int n = transitions.size();
        UUID[] ids = new UUID[n];
        String[] nexts = new String[n];
        String[] pspReferences = new String[n];
        String[] reasons = new String[n];
        String[] from = new String[n];
        for (int i = 0; i < n; i++) {
            Transition t = transitions.get(i);
            PaymentOperation moved = t.operation().moveTo(t.next(), t.pspReference(), t.reason());
            ids[i] = moved.id();
            nexts[i] = t.next().name();
            pspReferences[i] = moved.pspReference();
            reasons[i] = moved.failureReason();
            from[i] = OperationStatus.predecessorsOf(t.next()).stream()
                    .map(Enum::name)
                    .collect(Collectors.joining(","));
        }
        Map<String, Object> params = new HashMap<>(fence.params());
        params.putAll(payments.params());
        Map<UUID, Fenced> moved = new HashMap<>();
        jdbc.sql("WITH " + fence.sql() + ",\n" + MOVE_EACH + ",\n" + payments.sql() + "\nSELECT " + OPERATION_COLUMNS
                        + ", m.fence_lease_until, p.* FROM moved AS m LEFT JOIN " + PaymentMoves.PAYMENT
                        + " AS p ON p.id = m.payment_id")
                .params(params)
                .param("mo_id", ids)
                .param("mo_next", nexts)
                .param("mo_pspReference", pspReferences)
                .param("mo_reason", reasons)
                .param("mo_from", from)
                .param("mo_now", Db.at(clock.instant()))
                .query((rs, row) -> new Fenced(
                        map(rs, "op_"),
                        Db.instant(rs, "fence_lease_until"),
                        rs.getObject("id") == null ? null : PaymentStore.map(rs, row)))
                .list()
                .forEach(f -> moved.put(f.operation().id(), f));
        return moved;
    }

    // The uncorrelated count of the fence is an InitPlan: it locks every key of the batch before the join reads an
    // operation, and the payments' UPDATE reads the operations' (the CTE moved) before it locks a payment.
    private static final String MOVE_EACH = """
            moved AS (
                UPDATE payment_operations
                   SET status = m.m_next,
                       version = version + CASE WHEN status <> m.m_next THEN 1 ELSE 0 END,
                       updated_at = :mo_now, psp_reference = COALESCE(m.m_psp_reference, psp_reference),
                       failure_reason = m.m_reason
                  FROM unnest(CAST(:mo_id AS uuid[]), CAST(:mo_next AS text[]), CAST(:mo_pspReference AS text[]),
                              CAST(:mo_reason AS text[]), CAST(:mo_from AS text[]))
                       AS m(m_id, m_next, m_psp_reference, m_reason, m_from)
                  JOIN fence f ON f.resource_id = m.m_id
                 WHERE payment_operations.id = m.m_id
                   AND payment_operations.status = ANY (string_to_array(m.m_from, ','))
                   AND (SELECT count(*) FROM fence) > 0
                RETURNING payment_operations.*, f.lease_until AS fence_lease_until
            )""";

    private static final List<String> COLUMNS = List.of(
            "id",
            "payment_id",
            "merchant_id",
            "kind",
            "amount",
            "currency",
            "final",
            "reason",
            "status",
            "version",
            "provider_key",
            "psp_reference",
            "failure_reason",
            "created_at",
            "updated_at");

    /** The operation's columns as {@code op_<column>}, beside the payment's own in the move's result. */
    private static final String OPERATION_COLUMNS = String.join(
            ", ", COLUMNS.stream().map(c -> "m." + c + " AS op_" + c).toList());

    public Optional<PaymentOperation> findByProviderKey(String providerKey) {
        return jdbc.sql("SELECT * FROM payment_operations WHERE provider_key = :key")
                .param("key", providerKey)
                .query(OperationStore::map)
                .optional();
    }

    public Optional<PaymentOperation> find(UUID id) {
        return jdbc.sql("SELECT * FROM payment_operations WHERE id = :id")
                .param("id", id)
                .query(OperationStore::map)
                .optional();
    }

    public Optional<PaymentOperation> find(MerchantId merchant, OperationKind kind, UUID id) {
        return jdbc.sql("SELECT * FROM payment_operations WHERE id = :id AND merchant_id = :merchant AND kind = :kind")
                .param("id", id)
                .param("merchant", merchant.value())
                .param("kind", kind.apiName())
                .query(OperationStore::map)
                .optional();
    }

    public List<PaymentOperation> findByPayment(MerchantId merchant, PaymentId payment, OperationKind kind) {
        return jdbc.sql("""
                SELECT * FROM payment_operations WHERE payment_id = :payment AND merchant_id = :merchant AND kind = :kind
                 ORDER BY created_at, id LIMIT :limit
                """)
                .param("payment", payment.value())
                .param("merchant", merchant.value())
                .param("kind", kind.apiName())
                .param("limit", MAX_LIST)
                .query(OperationStore::map)
                .list();
    }

    private static PaymentOperation map(ResultSet rs, int row) throws SQLException {
        return map(rs, "");
    }

    private static PaymentOperation map(ResultSet rs, String prefix) throws SQLException {
        return new PaymentOperation(
                rs.getObject(prefix + "id", UUID.class),
                new PaymentId(rs.getObject(prefix + "payment_id", UUID.class)),
                new MerchantId(rs.getObject(prefix + "merchant_id", UUID.class)),
                OperationKind.valueOf(rs.getString(prefix + "kind").toUpperCase(Locale.ROOT)),
                rs.getLong(prefix + "amount"),
                CurrencyCode.of(rs.getString(prefix + "currency")),
                rs.getBoolean(prefix + "final"),
                rs.getString(prefix + "reason"),
                OperationStatus.valueOf(rs.getString(prefix + "status")),
                rs.getInt(prefix + "version"),
                rs.getString(prefix + "provider_key"),
                rs.getString(prefix + "psp_reference"),
                rs.getString(prefix + "failure_reason"),
                Db.instant(rs, prefix + "created_at"),
                Db.instant(rs, prefix + "updated_at"));
    }
}

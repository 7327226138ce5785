package dev.kopek.payments.jdbc;

import dev.kopek.money.CurrencyCode;
import dev.kopek.money.MerchantId;
import dev.kopek.money.Money;
import dev.kopek.money.PaymentId;
import dev.kopek.payments.domain.OperationKind;
import dev.kopek.payments.domain.OperationStatus;
import dev.kopek.payments.domain.PaymentOperation;
import dev.kopek.platform.Db;
import dev.kopek.platform.SqlPart;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
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
        return jdbc.sql("""
                INSERT INTO payment_operations (id, payment_id, merchant_id, kind, amount, currency, final, reason,
                                                status, provider_key, created_at, updated_at)
                VALUES (:id, :payment, :merchant, :kind, :amount, :currency, :final, :reason, 'PENDING',
                        :providerKey, :now, :now)
                RETURNING *
                """)
                .param("id", op.id())
                .param("payment", op.payment().value())
                .param("merchant", op.merchant().value())
                .param("kind", op.kind().apiName())
                .param("amount", op.amount().minor())
                .param("currency", op.amount().currency().code())
                .param("final", op.finalCapture())
                .param("reason", op.reason())
                .param("providerKey", op.providerKey())
                .param("now", Db.at(clock.instant()))
                .query(OperationStore::map)
                .single();
    }

    /** A move made by the key's owner; {@code keyLeaseUntil} is the key's lease as the fence locked it. */
    public record Fenced(PaymentOperation operation, Instant keyLeaseUntil) {}

    /**
     * Writes {@code op}'s move to {@code next} ({@link PaymentOperation#moveTo}, which refuses an illegal one) as the
     * key's current owner, in one statement: {@code fence} (the idempotency module's CTE named {@code fence}: the key
     * row, locked, while this attempt owns it) first, then the compare-and-set on the predecessors its table names.
     * Empty when either check fails; the caller tells a stale owner from a row past them already.
     */
    public Optional<Fenced> fencedTransition(
            SqlPart fence, PaymentOperation op, OperationStatus next, String pspReference, String reason) {
        PaymentOperation moved = op.moveTo(next, pspReference, reason);
        var from = OperationStatus.predecessorsOf(next).stream().map(Enum::name).toList();
        // The fence is an uncorrelated InitPlan, so PostgreSQL takes the key row's lock before it reads the
        // operation's row: the lock order stays key, then operation, then payment, as everywhere else.
        return jdbc.sql("WITH " + fence.sql() + """

                UPDATE payment_operations
                   SET status = :next, version = version + CASE WHEN status <> :next THEN 1 ELSE 0 END,
                       updated_at = :now,
                       psp_reference = COALESCE(:pspReference, psp_reference), failure_reason = :reason
                 WHERE id = :id AND status IN (:from) AND EXISTS (SELECT 1 FROM fence)
                RETURNING *, (SELECT lease_until FROM fence) AS fence_lease_until
                """)
                .params(fence.params())
                .param("next", next.name())
                .param("now", Db.at(clock.instant()))
                .param("pspReference", moved.pspReference())
                .param("reason", moved.failureReason())
                .param("id", op.id())
                .param("from", from)
                .query((rs, row) -> new Fenced(map(rs, row), Db.instant(rs, "fence_lease_until")))
                .optional();
    }

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
        return new PaymentOperation(
                rs.getObject("id", UUID.class),
                new PaymentId(rs.getObject("payment_id", UUID.class)),
                new MerchantId(rs.getObject("merchant_id", UUID.class)),
                OperationKind.valueOf(rs.getString("kind").toUpperCase(Locale.ROOT)),
                rs.getLong("amount"),
                CurrencyCode.of(rs.getString("currency")),
                rs.getBoolean("final"),
                rs.getString("reason"),
                OperationStatus.valueOf(rs.getString("status")),
                rs.getInt("version"),
                rs.getString("provider_key"),
                rs.getString("psp_reference"),
                rs.getString("failure_reason"),
                Db.instant(rs, "created_at"),
                Db.instant(rs, "updated_at"));
    }
}

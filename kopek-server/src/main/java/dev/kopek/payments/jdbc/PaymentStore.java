package dev.kopek.payments.jdbc;

import dev.kopek.money.CurrencyCode;
import dev.kopek.money.MerchantId;
import dev.kopek.money.Money;
import dev.kopek.money.PaymentId;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentRequest;
import dev.kopek.payments.domain.PaymentStatus;
import dev.kopek.platform.Db;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

/** The payments table. Every status change is a compare-and-set on the predecessors of the state machine. */
@Repository
public class PaymentStore {

    public static final String LIVE_ATTEMPT_INDEX = "ux_payments_intent_single_live_attempt";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int MAX_LIST = 100;

    private final JdbcClient jdbc;
    private final Clock clock;

    PaymentStore(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** Inserts the PENDING attempt; the partial unique index refuses a second live attempt for the intent (L2). */
    public Payment insertPending(PaymentId id, MerchantId merchant, PaymentRequest request, String idempotencyKey,
            String providerKey) {
        Instant now = clock.instant();
        return jdbc.sql("""
                INSERT INTO payments (id, merchant_id, reference, idempotency_key, provider_key, amount, currency,
                                      payment_method, capture_method, description, metadata, status,
                                      created_at, updated_at)
                VALUES (:id, :merchant, :reference, :key, :providerKey, :amount, :currency, :method, :capture,
                        :description, CAST(:metadata AS JSONB), 'PENDING', :now, :now)
                RETURNING *
                """)
                .param("id", id.value()).param("merchant", merchant.value()).param("reference", request.reference())
                .param("key", idempotencyKey).param("providerKey", providerKey)
                .param("amount", request.amount().minor()).param("currency", request.amount().currency().code())
                .param("method", request.paymentMethod()).param("capture", request.captureMethod())
                .param("description", request.description())
                .param("metadata", request.metadata() == null ? null : JSON.writeValueAsString(request.metadata()))
                .param("now", Db.at(now))
                .query(PaymentStore::map).single();
    }

    /**
     * Moves a payment to {@code next} if it is still in one of the state machine's predecessors. Empty when it was
     * not: the caller decides what a lost race means.
     */
    public Optional<Payment> transition(PaymentId id, PaymentStatus next, Outcome outcome) {
        var from = PaymentStatus.predecessorsOf(next).stream().map(Enum::name).toList();
        return jdbc.sql("""
                UPDATE payments
                   SET status = :next, version = version + 1, updated_at = :now,
                       amount_captured = CASE WHEN :next = 'CAPTURED' THEN amount ELSE amount_captured END,
                       psp_reference = COALESCE(:pspReference, psp_reference),
                       decline_code = :declineCode, failure_reason = :failureReason
                 WHERE id = :id AND status IN (:from)
                RETURNING *
                """)
                .param("next", next.name()).param("now", Db.at(clock.instant()))
                .param("pspReference", outcome.pspReference()).param("declineCode", outcome.declineCode())
                .param("failureReason", outcome.failureReason()).param("id", id.value()).param("from", from)
                .query(PaymentStore::map).optional();
    }

    /** What phase 3 writes beside the status. */
    public record Outcome(String pspReference, String declineCode, String failureReason) {
        public static Outcome none() {
            return new Outcome(null, null, null);
        }
    }

    public Optional<Payment> find(PaymentId id) {
        return jdbc.sql("SELECT * FROM payments WHERE id = :id").param("id", id.value())
                .query(PaymentStore::map).optional();
    }

    /** Merchant-scoped: another merchant's payment is indistinguishable from one that does not exist (L11). */
    public Optional<Payment> find(MerchantId merchant, PaymentId id) {
        return jdbc.sql("SELECT * FROM payments WHERE id = :id AND merchant_id = :merchant")
                .param("id", id.value()).param("merchant", merchant.value())
                .query(PaymentStore::map).optional();
    }

    public List<Payment> findByReference(MerchantId merchant, String reference) {
        return jdbc.sql("""
                SELECT * FROM payments WHERE merchant_id = :merchant AND reference = :reference
                 ORDER BY created_at DESC, id DESC LIMIT :limit
                """)
                .param("merchant", merchant.value()).param("reference", reference).param("limit", MAX_LIST)
                .query(PaymentStore::map).list();
    }

    private static Payment map(ResultSet rs, int row) throws SQLException {
        return new Payment(new PaymentId(rs.getObject("id", UUID.class)),
                new MerchantId(rs.getObject("merchant_id", UUID.class)), rs.getString("reference"),
                rs.getString("idempotency_key"), rs.getString("provider_key"),
                new Money(rs.getLong("amount"), CurrencyCode.of(rs.getString("currency"))),
                rs.getLong("amount_captured"), rs.getString("payment_method"), rs.getString("capture_method"),
                rs.getString("description"), rs.getString("metadata"),
                PaymentStatus.valueOf(rs.getString("status")), rs.getInt("version"), rs.getString("psp_reference"),
                rs.getString("decline_code"), rs.getString("failure_reason"), Db.instant(rs, "created_at"),
                Db.instant(rs, "updated_at"));
    }
}

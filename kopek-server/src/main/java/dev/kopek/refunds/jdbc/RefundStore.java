package dev.kopek.refunds.jdbc;

import dev.kopek.money.CurrencyCode;
import dev.kopek.money.MerchantId;
import dev.kopek.money.Money;
import dev.kopek.money.PaymentId;
import dev.kopek.money.RefundId;
import dev.kopek.platform.Db;
import dev.kopek.refunds.domain.Refund;
import dev.kopek.refunds.domain.RefundStatus;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The refunds table: a claim is a fenced take-over, a status change a compare-and-set on the predecessors. */
@Repository
public class RefundStore {

    private static final int MAX_LIST = 100;

    private final JdbcClient jdbc;
    private final Clock clock;

    RefundStore(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** A new PENDING refund, claimable at once (attempt 0, lease already over). */
    public Refund insert(RefundId id, PaymentId payment, MerchantId merchant, Money amount, String reason,
            String providerKey) {
        Instant now = clock.instant();
        return jdbc.sql("""
                INSERT INTO refunds (id, payment_id, merchant_id, amount, currency, reason, status, attempt,
                                     lease_until, provider_key, created_at, updated_at)
                VALUES (:id, :payment, :merchant, :amount, :currency, :reason, 'PENDING', 0, :now, :providerKey,
                        :now, :now)
                RETURNING *
                """)
                .param("id", id.value()).param("payment", payment.value()).param("merchant", merchant.value())
                .param("amount", amount.minor()).param("currency", amount.currency().code())
                .param("reason", reason).param("providerKey", providerKey).param("now", Db.at(now))
                .query(RefundStore::map).single();
    }

    /**
     * Takes ownership of an unfinished refund whose lease is over, as attempt {@code seen + 1}. One statement, so
     * among instances and threads exactly one wins each expiry.
     */
    public Optional<Refund> claim(Refund seen, Instant leaseUntil) {
        return jdbc.sql("""
                UPDATE refunds SET attempt = attempt + 1, lease_until = :leaseUntil, updated_at = :now
                 WHERE id = :id AND attempt = :attempt AND lease_until <= :now AND status IN ('PENDING', 'UNKNOWN')
                RETURNING *
                """)
                .param("leaseUntil", Db.at(leaseUntil)).param("now", Db.at(clock.instant()))
                .param("id", seen.id().value()).param("attempt", seen.attempt())
                .query(RefundStore::map).optional();
    }

    /**
     * Moves a refund to {@code next} if it is still in a predecessor state and, when {@code attempt} is given,
     * still owned by it. Empty otherwise: a stale owner or a duplicate outcome changes nothing. The version (the
     * event sequence) changes only with the status, and a success clears the reason an earlier try failed.
     */
    public Optional<Refund> transition(RefundId id, Integer attempt, RefundStatus next, String pspReference,
            String failureReason, Instant leaseUntil) {
        var from = RefundStatus.predecessorsOf(next).stream().map(Enum::name).toList();
        return jdbc.sql("""
                UPDATE refunds
                   SET status = :next, version = version + CASE WHEN status <> :next THEN 1 ELSE 0 END,
                       updated_at = :now, psp_reference = COALESCE(:pspReference, psp_reference),
                       failure_reason = CASE WHEN :next = 'SUCCEEDED' THEN NULL
                           ELSE COALESCE(:failureReason, failure_reason) END,
                       lease_until = COALESCE(:leaseUntil, lease_until)
                 WHERE id = :id AND status IN (:from) AND (CAST(:attempt AS INT) IS NULL OR attempt = :attempt)
                RETURNING *
                """)
                .param("next", next.name()).param("now", Db.at(clock.instant())).param("pspReference", pspReference)
                .param("failureReason", failureReason).param("leaseUntil", Db.at(leaseUntil))
                .param("id", id.value()).param("from", from).param("attempt", attempt)
                .query(RefundStore::map).optional();
    }

    public List<Refund> findDue(int limit) {
        return jdbc.sql("""
                SELECT * FROM refunds WHERE status IN ('PENDING', 'UNKNOWN') AND lease_until <= :now
                 ORDER BY lease_until LIMIT :limit
                """)
                .param("now", Db.at(clock.instant())).param("limit", limit)
                .query(RefundStore::map).list();
    }

    public Optional<Refund> findByProviderKey(String providerKey) {
        return jdbc.sql("SELECT * FROM refunds WHERE provider_key = :key").param("key", providerKey)
                .query(RefundStore::map).optional();
    }

    public Optional<Refund> find(RefundId id) {
        return jdbc.sql("SELECT * FROM refunds WHERE id = :id").param("id", id.value())
                .query(RefundStore::map).optional();
    }

    public Optional<Refund> find(MerchantId merchant, RefundId id) {
        return jdbc.sql("SELECT * FROM refunds WHERE id = :id AND merchant_id = :merchant")
                .param("id", id.value()).param("merchant", merchant.value())
                .query(RefundStore::map).optional();
    }

    public List<Refund> findByPayment(MerchantId merchant, PaymentId payment) {
        return jdbc.sql("""
                SELECT * FROM refunds WHERE payment_id = :payment AND merchant_id = :merchant
                 ORDER BY created_at, id LIMIT :limit
                """)
                .param("payment", payment.value()).param("merchant", merchant.value()).param("limit", MAX_LIST)
                .query(RefundStore::map).list();
    }

    private static Refund map(ResultSet rs, int row) throws SQLException {
        return new Refund(new RefundId(rs.getObject("id", UUID.class)),
                new PaymentId(rs.getObject("payment_id", UUID.class)),
                new MerchantId(rs.getObject("merchant_id", UUID.class)),
                new Money(rs.getLong("amount"), CurrencyCode.of(rs.getString("currency"))), rs.getString("reason"),
                RefundStatus.valueOf(rs.getString("status")), rs.getInt("version"), rs.getInt("attempt"),
                Db.instant(rs, "lease_until"), rs.getString("provider_key"), rs.getString("psp_reference"),
                rs.getString("failure_reason"), Db.instant(rs, "created_at"), Db.instant(rs, "updated_at"));
    }
}

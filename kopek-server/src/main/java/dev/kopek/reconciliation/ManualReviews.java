package dev.kopek.reconciliation;

import dev.kopek.money.MerchantId;
import dev.kopek.money.PaymentId;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.payments.ManualReviewRequired;
import dev.kopek.payments.PaymentAnswer;
import dev.kopek.payments.PaymentService;
import dev.kopek.platform.Db;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The queue of payments a machine must not decide: unknown outcomes past the PSP's key window. Items arrive in
 * the same transaction that parks the payment, and leave only by a recorded human decision.
 */
@Service
public class ManualReviews {

    private static final Logger log = LoggerFactory.getLogger(ManualReviews.class);

    private final JdbcClient jdbc;
    private final PaymentService payments;
    private final Clock clock;

    ManualReviews(JdbcClient jdbc, PaymentService payments, Clock clock) {
        this.jdbc = jdbc;
        this.payments = payments;
        this.clock = clock;
    }

    /** Runs synchronously inside the settling transaction: the item commits with the parked payment or not at all. */
    @EventListener
    void on(ManualReviewRequired event) {
        int inserted = jdbc.sql("""
                INSERT INTO manual_reviews (id, merchant_id, payment_id, reason, status, created_at, subject, subject_id)
                VALUES (:id, :merchant, :payment, :reason, 'OPEN', :now, :subject, :subjectId)
                ON CONFLICT (subject, subject_id) WHERE status = 'OPEN' DO NOTHING
                """)
                .param("id", TimeOrderedIds.next(clock)).param("merchant", event.merchant().value())
                .param("payment", event.payment().value()).param("reason", event.reason())
                .param("subject", event.subject()).param("subjectId", event.subjectId())
                .param("now", Db.at(clock.instant()))
                .update();
        if (inserted == 1) {
            log.warn("payment {} queued for manual review: {}", event.payment(), event.reason());
        }
    }

    public List<ManualReview> list(String status, int limit) {
        return jdbc.sql("""
                SELECT * FROM manual_reviews WHERE (:status = 'ALL' OR status = :status)
                 ORDER BY created_at, id LIMIT :limit
                """)
                .param("status", status).param("limit", limit)
                .query(ManualReviews::map).list();
    }

    public Optional<ManualReview> find(UUID id) {
        return jdbc.sql("SELECT * FROM manual_reviews WHERE id = :id").param("id", id)
                .query(ManualReviews::map).optional();
    }

    public long openCount() {
        return jdbc.sql("SELECT count(*) FROM manual_reviews WHERE status = 'OPEN'").query(Long.class).single();
    }

    /** The outcome of a resolution attempt. */
    public sealed interface Resolution {
        record Resolved(ManualReview review, PaymentAnswer answer) implements Resolution {
        }

        record NotOpen(ManualReview review) implements Resolution {
        }

        record NotFound() implements Resolution {
        }

        /** Captures, voids and refunds past the key window are settled by support tooling, not yet by this API. */
        record Unsupported(ManualReview review) implements Resolution {
        }
    }

    /**
     * Records a person's decision and applies it to the payment through the fenced settlement, in one
     * transaction: either both the decision and the payment's final state commit, or neither.
     */
    @Transactional
    public Resolution resolve(UUID id, boolean charged, String pspReference, String actor, String note) {
        Optional<ManualReview> locked = jdbc.sql("SELECT * FROM manual_reviews WHERE id = :id FOR UPDATE")
                .param("id", id).query(ManualReviews::map).optional();
        if (locked.isEmpty()) {
            return new Resolution.NotFound();
        }
        if (!locked.get().status().equals("OPEN")) {
            return new Resolution.NotOpen(locked.get());
        }
        if (!locked.get().subject().equals("payment")) {
            return new Resolution.Unsupported(locked.get());
        }
        Optional<PaymentAnswer> answer = payments.resolveManually(locked.get().payment(), charged, pspReference, actor);
        if (answer.isEmpty()) {
            return new Resolution.NotOpen(locked.get());
        }
        jdbc.sql("""
                UPDATE manual_reviews
                   SET status = 'RESOLVED', resolution = :resolution, psp_reference = :pspReference,
                       resolved_by = :actor, resolved_note = :note, resolved_at = :now
                 WHERE id = :id AND status = 'OPEN'
                """)
                .param("resolution", charged ? "captured" : "failed").param("pspReference", pspReference)
                .param("actor", actor).param("note", note).param("now", Db.at(clock.instant())).param("id", id)
                .update();
        log.info("manual review {} resolved as {} by {}", id, charged ? "captured" : "failed", actor);
        return new Resolution.Resolved(find(id).orElseThrow(), answer.get());
    }

    private static ManualReview map(ResultSet rs, int row) throws SQLException {
        return new ManualReview(rs.getObject("id", UUID.class), new MerchantId(rs.getObject("merchant_id", UUID.class)),
                new PaymentId(rs.getObject("payment_id", UUID.class)), rs.getString("subject"),
                rs.getObject("subject_id", UUID.class), rs.getString("reason"), rs.getString("status"),
                Db.instant(rs, "created_at"), rs.getString("resolution"), rs.getString("psp_reference"),
                rs.getString("resolved_by"), rs.getString("resolved_note"), Db.instant(rs, "resolved_at"));
    }
}

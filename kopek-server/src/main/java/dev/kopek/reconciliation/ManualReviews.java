package dev.kopek.reconciliation;

import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.money.MerchantId;
import dev.kopek.money.PaymentId;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.payments.ManualReviewRequired;
import dev.kopek.payments.OperationRunner;
import dev.kopek.payments.ParkedOutcomeRecorded;
import dev.kopek.payments.PaymentService;
import dev.kopek.payments.domain.OperationKind;
import dev.kopek.payments.domain.Payment;
import dev.kopek.platform.Db;
import dev.kopek.psp.ChargeOutcome;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.interceptor.TransactionAspectSupport;

/**
 * The queue of what a machine must not decide: unknown outcomes of payments, captures, voids and refunds past the
 * PSP's key window; chargebacks overlapping refunds; notifications that could not be applied. Items arrive in the
 * same transaction that parks their subject, and leave by a recorded human decision, or when the PSP's own answer
 * settles a parked outcome first.
 */
@Service
public class ManualReviews {

    private static final Logger log = LoggerFactory.getLogger(ManualReviews.class);
    /** The actor recorded when a PSP notification settled a parked outcome before a person did. */
    public static final String SETTLED_BY_PSP = "psp-notification";

    /**
     * How long a card authorization holds at the PSP when it names no expiry (Stripe's, and the simulator's default):
     * counted from when the payment was sent, which is when the PSP authorized it, never from when it was parked.
     */
    private static final Duration CARD_AUTHORIZATION = Duration.ofDays(7);

    private final JdbcClient jdbc;
    private final PaymentService payments;
    private final OperationRunner operations;
    private final IdempotencyKeys keys;
    private final Clock clock;

    ManualReviews(
            JdbcClient jdbc, PaymentService payments, OperationRunner operations, IdempotencyKeys keys, Clock clock) {
        this.jdbc = jdbc;
        this.payments = payments;
        this.operations = operations;
        this.keys = keys;
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
                .param("id", TimeOrderedIds.next(clock))
                .param(
                        "merchant",
                        event.merchant() == null ? null : event.merchant().value())
                .param(
                        "payment",
                        event.payment() == null ? null : event.payment().value())
                .param("reason", event.reason())
                .param("subject", event.subject())
                .param("subjectId", event.subjectId())
                .param("now", Db.at(clock.instant()))
                .update();
        if (inserted == 1) {
            log.warn(
                    "{} {} of payment {} queued for manual review: {}",
                    event.subject(),
                    event.subjectId(),
                    event.payment(),
                    event.reason());
        }
    }

    /** Runs inside the settling transaction: a parked outcome the machine settled after all closes its review. */
    @EventListener
    void on(ParkedOutcomeRecorded event) {
        int closed = jdbc.sql("""
                UPDATE manual_reviews
                   SET status = 'RESOLVED', resolution = :resolution, resolved_by = :actor, resolved_at = :now,
                       resolved_note = 'settled by the PSP''s own answer before a person decided'
                 WHERE subject = :subject AND subject_id = :subjectId AND status = 'OPEN'
                """)
                .param("resolution", event.resolution())
                .param("actor", SETTLED_BY_PSP)
                .param("now", Db.at(clock.instant()))
                .param("subject", event.subject())
                .param("subjectId", event.subjectId())
                .update();
        if (closed == 1) {
            log.info(
                    "{} {} review closed: the PSP's answer settled it as {}",
                    event.subject(),
                    event.subjectId(),
                    event.resolution());
        }
    }

    public List<ManualReview> list(String status, int limit) {
        return jdbc.sql("""
                SELECT * FROM manual_reviews WHERE (:status = 'ALL' OR status = :status)
                 ORDER BY created_at, id LIMIT :limit
                """)
                .param("status", status)
                .param("limit", limit)
                .query(ManualReviews::map)
                .list();
    }

    public Optional<ManualReview> find(UUID id) {
        return jdbc.sql("SELECT * FROM manual_reviews WHERE id = :id")
                .param("id", id)
                .query(ManualReviews::map)
                .optional();
    }

    public long openCount() {
        return jdbc.sql("SELECT count(*) FROM manual_reviews WHERE status = 'OPEN'")
                .query(Long.class)
                .single();
    }

    /** The outcome of a resolution attempt. */
    public sealed interface Resolution {
        record Resolved(ManualReview review) implements Resolution {}

        record NotOpen(ManualReview review) implements Resolution {}

        record NotFound() implements Resolution {}

        /** The decision does not fit what the review is about; nothing changed. */
        record NotApplicable(ManualReview review, String detail) implements Resolution {}
    }

    /**
     * A person's decision, after checking with the PSP out of band.
     *
     * @param kind for a payment {@code captured}, {@code authorized} (only held; a manual-capture payment) or
     *     {@code failed}; for a capture, void or refund {@code succeeded} or {@code failed}; for an exposure, a
     *     notification or an invariant violation {@code acknowledged}
     * @param pspReference the PSP's reference of what moved (for captured, authorized, succeeded)
     * @param captureBefore for authorized: when the hold expires at the PSP (default: the payment's own expiry if
     *     Kopek knows it, else 7 days from when the payment was sent; the console gives none)
     */
    public record Decision(String kind, String pspReference, Instant captureBefore) {}

    private static final Map<String, Set<String>> DECISIONS = Map.of(
            "payment", Set.of("captured", "authorized", "failed"),
            "capture", Set.of("succeeded", "failed"),
            "void", Set.of("succeeded", "failed"),
            "refund", Set.of("succeeded", "failed"),
            "exposure", Set.of("acknowledged"),
            "notification", Set.of("acknowledged"),
            "invariant", Set.of("acknowledged"));

    /**
     * Records a person's decision and applies it through the same fenced path and ledger postings as any machine
     * outcome, in one transaction: either both the decision and the subject's final state commit, or neither.
     * The review is marked first, so the settlement's own "a parked outcome was settled" does not claim it.
     *
     * <p>Locks in the order every writer of an outcome takes them: the subject's key first, then the review. A PSP
     * notification's phase 3 holds the key and then closes the review (ParkedOutcomeRecorded); the review first and
     * the key second made the two deadlock on one parked payment (issue 24, defect 9). Whichever takes the key first
     * finishes; the other then finds the key completed and the review resolved.
     */
    @Transactional
    public Resolution resolve(UUID id, Decision decision, String actor, String note) {
        Optional<ManualReview> seen = find(id);
        if (seen.isEmpty()) {
            return new Resolution.NotFound();
        }
        keySpaceOf(seen.get().subject())
                .ifPresent(
                        space -> keys.lockUnfinishedByResource(space, seen.get().subjectId()));
        ManualReview review = jdbc.sql("SELECT * FROM manual_reviews WHERE id = :id FOR UPDATE")
                .param("id", id)
                .query(ManualReviews::map)
                .single();
        if (!review.status().equals("OPEN")) {
            return new Resolution.NotOpen(review);
        }
        Optional<String> unfit = unfit(review, decision);
        if (unfit.isPresent()) {
            return new Resolution.NotApplicable(review, unfit.get());
        }
        jdbc.sql("""
                UPDATE manual_reviews
                   SET status = 'RESOLVED', resolution = :resolution, psp_reference = :pspReference,
                       resolved_by = :actor, resolved_note = :note, resolved_at = :now
                 WHERE id = :id AND status = 'OPEN'
                """)
                .param("resolution", decision.kind())
                .param("pspReference", decision.pspReference())
                .param("actor", actor)
                .param("note", note)
                .param("now", Db.at(clock.instant()))
                .param("id", id)
                .update();
        if (!apply(review, decision, actor)) {
            TransactionAspectSupport.currentTransactionStatus().setRollbackOnly();
            return new Resolution.NotOpen(review);
        }
        log.info(
                "manual review {} ({} {}) resolved as {} by {}",
                id,
                review.subject(),
                review.subjectId(),
                decision.kind(),
                actor);
        return new Resolution.Resolved(find(id).orElseThrow());
    }

    /** The key space of a review's subject whose key a decision takes over; none for an exposure or a notification. */
    private static Optional<String> keySpaceOf(String subject) {
        return switch (subject) {
            case "payment" -> Optional.of(PaymentService.OPERATION);
            case "capture", "void", "refund" ->
                Optional.of(
                        OperationKind.valueOf(subject.toUpperCase(Locale.ROOT)).keySpace());
            default -> Optional.empty();
        };
    }

    private Optional<String> unfit(ManualReview review, Decision decision) {
        Set<String> allowed = DECISIONS.getOrDefault(review.subject(), Set.of());
        if (!allowed.contains(decision.kind())) {
            return Optional.of(
                    "A review of a " + review.subject() + " is decided as one of " + new TreeSet<>(allowed) + ".");
        }
        if (review.subject().equals("payment")
                && decision.kind().equals("captured")
                && payments.find(review.merchant(), review.payment())
                        .map(Payment::isManualCapture)
                        .orElse(false)) {
            return Optional.of("This payment has capture_method 'manual': the PSP only authorized it, so decide"
                    + " 'authorized' (recording 'captured' would book a capture that never happened).");
        }
        return Optional.empty();
    }

    private boolean apply(ManualReview review, Decision decision, String actor) {
        ChargeOutcome outcome = switch (decision.kind()) {
            case "captured", "succeeded" -> new ChargeOutcome.Succeeded(decision.pspReference());
            case "authorized" ->
                new ChargeOutcome.Authorized(
                        decision.pspReference(),
                        decision.captureBefore() != null ? decision.captureBefore() : authorizationExpiry(review));
            case "failed" -> new ChargeOutcome.Failed("nothing moved at the PSP, confirmed by " + actor);
            default -> null;
        };
        return switch (review.subject()) {
            case "payment" ->
                payments.resolveManually(review.payment(), outcome).isPresent();
            case "capture", "void", "refund" ->
                operations.resolveManually(review.subjectId(), outcome).isPresent();
            default -> true;
        };
    }

    /**
     * When the hold a person decided as authorized expires at the PSP, where the person named no time: the payment's
     * own expiry if Kopek learned it, else a card hold's 7 days from when the payment was sent. The review was opened
     * at least a key window later (a day at Stripe), so counting from it would let Kopek capture after the PSP has
     * released the hold, and release it in the ledger a day late.
     */
    private Instant authorizationExpiry(ManualReview review) {
        Payment payment = payments.find(review.merchant(), review.payment())
                .orElseThrow(() -> new IllegalStateException("review " + review.id() + " names no payment"));
        return payment.captureBefore() != null
                ? payment.captureBefore()
                : payment.createdAt().plus(CARD_AUTHORIZATION);
    }

    private static ManualReview map(ResultSet rs, int row) throws SQLException {
        UUID merchant = rs.getObject("merchant_id", UUID.class);
        UUID payment = rs.getObject("payment_id", UUID.class);
        return new ManualReview(
                rs.getObject("id", UUID.class),
                merchant == null ? null : new MerchantId(merchant),
                payment == null ? null : new PaymentId(payment),
                rs.getString("subject"),
                rs.getObject("subject_id", UUID.class),
                rs.getString("reason"),
                rs.getString("status"),
                Db.instant(rs, "created_at"),
                rs.getString("resolution"),
                rs.getString("psp_reference"),
                rs.getString("resolved_by"),
                rs.getString("resolved_note"),
                Db.instant(rs, "resolved_at"));
    }
}

package dev.kopek.disputes;

import dev.kopek.events.EventStatements;
import dev.kopek.money.MerchantId;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.payments.NotificationResult;
import dev.kopek.payments.PaymentBalances;
import dev.kopek.payments.domain.Payment;
import dev.kopek.platform.Db;
import dev.kopek.psp.NotificationSource;
import dev.kopek.psp.PaymentProviders;
import dev.kopek.psp.PspNotification;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Inquiries: the issuer asks about a payment before, or instead of, a chargeback (Stripe's {@code warning_*}
 * dispute statuses). Nothing has been withdrawn, so an inquiry posts nothing and leaves the payment's status and
 * amounts alone; it is recorded in {@code dispute_inquiries} (V167; keyed by the reporting account and the PSP's id,
 * V171) and announced ({@code dispute.inquiry_opened}, {@code dispute.inquiry_closed}) because the merchant has to
 * answer it. Its closing may arrive first (events are reordered): it records the inquiry closed, and the late opening
 * changes nothing. When the issuer escalates it, {@link Disputes} records the chargeback and marks the inquiry
 * ESCALATED; an inquiry event about a dispute already recorded as a chargeback changes nothing. Runs inside the
 * caller's transaction ({@link Disputes#apply}).
 */
final class Inquiries {

    private final JdbcClient jdbc;
    private final PaymentBalances balances;
    private final EventStatements events;
    private final PaymentProviders psps;
    private final Clock clock;

    Inquiries(JdbcClient jdbc, PaymentBalances balances, EventStatements events, PaymentProviders psps, Clock clock) {
        this.jdbc = jdbc;
        this.balances = balances;
        this.events = events;
        this.psps = psps;
        this.clock = clock;
    }

    private record Inquiry(
            UUID id,
            UUID paymentId,
            MerchantId merchant,
            String pspDisputeId,
            long amount,
            String currency,
            String reason,
            InquiryStatus status,
            int version) {}

    NotificationResult opened(PspNotification n, NotificationSource source) {
        return switch (held(n, source)) {
            case HeldPayment.None none -> none.result();
            case HeldPayment.Found found ->
                insert(n, found.payment(), InquiryStatus.OPEN)
                        .map(this::announce)
                        .orElse(NotificationResult.IGNORED);
        };
    }

    NotificationResult closed(PspNotification n, NotificationSource source) {
        return switch (held(n, source)) {
            case HeldPayment.None none -> none.result();
            case HeldPayment.Found found -> {
                Optional<Inquiry> closed = DisputeAccount.of(found.payment())
                        .bind(jdbc.sql("""
                        UPDATE dispute_inquiries SET status = :closed, version = version + 1, updated_at = :now
                         WHERE psp_dispute_id = :psp AND merchant_id = :merchant AND status IN (:from) AND %s
                        RETURNING *
                        """.formatted(DisputeAccount.SAME_ACCOUNT)))
                        .param("closed", InquiryStatus.CLOSED.name())
                        .param("from", Disputes.names(InquiryStatus.predecessorsOf(InquiryStatus.CLOSED)))
                        .param("now", Db.at(clock.instant()))
                        .param("psp", n.objectId())
                        .param("merchant", found.payment().merchant().value())
                        .query(Inquiries::map)
                        .optional();
                yield closed.or(() -> insert(n, found.payment(), InquiryStatus.CLOSED))
                        .map(this::announce)
                        .orElse(NotificationResult.IGNORED);
            }
        };
    }

    /**
     * The chargeback under this PSP dispute id has just been recorded (after the payment's row lock): its inquiry,
     * if there was one, escalated. Announced as the dispute's opening, so the inquiry's version does not move.
     */
    void escalated(DisputeAccount account, String pspDisputeId) {
        account.bind(jdbc.sql("""
                        UPDATE dispute_inquiries SET status = :escalated, updated_at = :now
                         WHERE psp_dispute_id = :psp AND status IN (:from) AND %s
                        """.formatted(DisputeAccount.SAME_ACCOUNT)))
                .param("escalated", InquiryStatus.ESCALATED.name())
                .param("from", Disputes.names(InquiryStatus.predecessorsOf(InquiryStatus.ESCALATED)))
                .param("now", Db.at(clock.instant()))
                .param("psp", pspDisputeId)
                .update();
    }

    /**
     * The payment the inquiry is about, held by the account that sent it (L11), locked: a chargeback recorded for
     * the same dispute at the same moment takes this lock too, so one of the two sees the other.
     */
    private HeldPayment held(PspNotification n, NotificationSource source) {
        HeldPayment held = HeldPayment.of(n, source, balances, psps);
        if (!(held instanceof HeldPayment.Found found)) {
            return held;
        }
        Payment locked = balances.lock(found.payment().id());
        boolean chargedBack = DisputeAccount.of(locked)
                        .bind(jdbc.sql("SELECT count(*) FROM disputes WHERE psp_dispute_id = :psp AND "
                                + DisputeAccount.SAME_ACCOUNT))
                        .param("psp", n.objectId())
                        .query(Long.class)
                        .single()
                > 0;
        return chargedBack ? new HeldPayment.None(NotificationResult.IGNORED) : new HeldPayment.Found(locked);
    }

    private Optional<Inquiry> insert(PspNotification n, Payment p, InquiryStatus status) {
        return jdbc.sql("""
                INSERT INTO dispute_inquiries (id, payment_id, merchant_id, psp_account, psp_dispute_id, amount, currency,
                                               reason, status, created_at, updated_at)
                VALUES (:id, :payment, :merchant, :pspAccount, :psp, :amount, :currency, :reason, :status, :now, :now)
                ON CONFLICT (psp_account, account_merchant_id, psp_dispute_id) DO NOTHING
                RETURNING *
                """)
                .param("pspAccount", DisputeAccount.of(p).pspAccount())
                .param("id", TimeOrderedIds.next(clock))
                .param("payment", p.id().value())
                .param("merchant", p.merchant().value())
                .param("psp", n.objectId())
                .param("amount", n.amountMinor())
                .param("currency", p.amount().currency().code())
                .param("reason", n.reason())
                .param("status", status.name())
                .param("now", Db.at(clock.instant()))
                .query(Inquiries::map)
                .optional();
    }

    private NotificationResult announce(Inquiry q) {
        events.write(Disputes.event(
                q.status().eventType().orElseThrow(),
                q.id(),
                q.paymentId(),
                q.merchant(),
                q.version(),
                q.status().apiName(),
                q.amount(),
                q.currency(),
                q.reason(),
                q.pspDisputeId(),
                clock));
        return NotificationResult.APPLIED;
    }

    private static Inquiry map(ResultSet rs, int row) throws SQLException {
        return new Inquiry(
                rs.getObject("id", UUID.class),
                rs.getObject("payment_id", UUID.class),
                new MerchantId(rs.getObject("merchant_id", UUID.class)),
                rs.getString("psp_dispute_id"),
                rs.getLong("amount"),
                rs.getString("currency"),
                rs.getString("reason"),
                InquiryStatus.valueOf(rs.getString("status")),
                rs.getInt("version"));
    }
}

package dev.kopek.disputes;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.EventStatements;
import dev.kopek.money.MerchantId;
import dev.kopek.money.PrefixedId;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.payments.NotificationResult;
import dev.kopek.payments.PaymentBalances;
import dev.kopek.payments.domain.Payment;
import dev.kopek.platform.Db;
import dev.kopek.psp.NotificationSource;
import dev.kopek.psp.PaymentProviders;
import dev.kopek.psp.PspNotification;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.json.JsonMapper;

/**
 * Applies the PSP's dispute notifications. A chargeback is a fact: it is recorded and posted whatever the payment's
 * state, and an overlap with refunds goes to a person (docs/ledger.md). Opening is keyed by the reporting PSP account
 * and the PSP's dispute id (a duplicate finds the row and changes nothing; V171); closing is a compare-and-set from
 * OPEN, so a late or repeated outcome changes nothing, and an outcome that arrives before its opening stays unmatched
 * until the opening is applied. An inquiry (the issuer asks before or instead of a chargeback; nothing withdrawn) is
 * no dispute: {@link Inquiries} records it apart, and its escalation is recorded here as the chargeback it then is.
 */
@Service
public class Disputes {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final JdbcClient jdbc;
    private final PaymentBalances balances;
    private final EventStatements events;
    private final PaymentProviders psps;
    private final Clock clock;
    private final Inquiries inquiries;

    Disputes(JdbcClient jdbc, PaymentBalances balances, EventStatements events, PaymentProviders psps, Clock clock) {
        this.jdbc = jdbc;
        this.balances = balances;
        this.events = events;
        this.psps = psps;
        this.clock = clock;
        this.inquiries = new Inquiries(jdbc, balances, events, psps, clock);
    }

    record Dispute(
            UUID id,
            UUID paymentId,
            dev.kopek.money.MerchantId merchant,
            String pspDisputeId,
            long amount,
            String currency,
            String reason,
            DisputeStatus status,
            int version) {}

    /** Applies a dispute notification; one from an account that does not hold the payment changes nothing (L11). */
    @Transactional
    public NotificationResult apply(PspNotification n, NotificationSource source) {
        return switch (n.type()) {
            case "dispute.opened" -> opened(n, source);
            case "dispute.won" -> closed(n, source, true);
            case "dispute.lost" -> closed(n, source, false);
            case "dispute.inquiry_opened" -> inquiries.opened(n, source);
            case "dispute.inquiry_closed" -> inquiries.closed(n, source);
            default -> NotificationResult.IGNORED;
        };
    }

    private NotificationResult opened(PspNotification n, NotificationSource source) {
        HeldPayment held = HeldPayment.of(n, source, balances, psps);
        if (!(held instanceof HeldPayment.Found(Payment p))) {
            return ((HeldPayment.None) held).result();
        }
        // Keyed by the reporting account and the PSP's id (V171): another account's id can never pre-empt this one.
        DisputeAccount account = DisputeAccount.of(p);
        Optional<Dispute> inserted = jdbc.sql("""
                INSERT INTO disputes (id, payment_id, merchant_id, psp_account, psp_dispute_id, amount, currency, reason,
                                      status, created_at, updated_at)
                VALUES (:id, :payment, :merchant, :pspAccount, :psp, :amount, :currency, :reason, :open, :now, :now)
                ON CONFLICT (psp_account, account_merchant_id, psp_dispute_id) DO NOTHING
                RETURNING *
                """)
                .param("pspAccount", account.pspAccount())
                .param("id", TimeOrderedIds.next(clock))
                .param("payment", p.id().value())
                .param("merchant", p.merchant().value())
                .param("psp", n.objectId())
                .param("amount", n.amountMinor())
                .param("currency", p.amount().currency().code())
                .param("reason", n.reason())
                .param("open", DisputeStatus.OPEN.name())
                .param("now", Db.at(clock.instant()))
                .query(Disputes::map)
                .optional();
        if (inserted.isEmpty()) {
            return NotificationResult.IGNORED;
        }
        balances.disputeOpened(p.id(), inserted.get().id(), n.amountMinor());
        // After the payment's row lock, which an inquiry's recording takes first: one of the two sees the other.
        inquiries.escalated(account, n.objectId());
        announce(inserted.get());
        return NotificationResult.APPLIED;
    }

    private NotificationResult closed(PspNotification n, NotificationSource source, boolean won) {
        // Only the account that reported the dispute speaks for it (L11): its id means nothing in another account.
        Optional<UUID> recorded = DisputeAccount.of(source)
                .bind(jdbc.sql(
                        "SELECT id FROM disputes WHERE psp_dispute_id = :psp AND " + DisputeAccount.SAME_ACCOUNT))
                .param("psp", n.objectId())
                .query(UUID.class)
                .optional();
        if (recorded.isEmpty()) {
            // Not opened in this account (yet): about another account's payment it is foreign, else it waits.
            return HeldPayment.of(n, source, balances, psps) instanceof HeldPayment.None(var result)
                            && result == NotificationResult.FOREIGN
                    ? NotificationResult.FOREIGN
                    : NotificationResult.UNMATCHED;
        }
        // Compare-and-set from the table's predecessors of the outcome: a late or repeated outcome moves nothing.
        DisputeStatus next = won ? DisputeStatus.WON : DisputeStatus.LOST;
        Optional<Dispute> closed = jdbc.sql("""
                UPDATE disputes SET status = :status, version = version + 1, updated_at = :now
                 WHERE id = :id AND status IN (:from)
                RETURNING *
                """)
                .param("status", next.name())
                .param("from", names(DisputeStatus.predecessorsOf(next)))
                .param("now", Db.at(clock.instant()))
                .param("id", recorded.get())
                .query(Disputes::map)
                .optional();
        if (closed.isEmpty()) {
            // Decided already: the same outcome again is late or repeated; the other one contradicts the money Kopek
            // moved on the first (a chargeback withdrawn, or returned), so it is a conflict for a person, not noise.
            DisputeStatus held = DisputeStatus.valueOf(jdbc.sql("SELECT status FROM disputes WHERE id = :id")
                    .param("id", recorded.get())
                    .query(String.class)
                    .single());
            return held.isFinal() && held != next ? NotificationResult.CONFLICT : NotificationResult.IGNORED;
        }
        Dispute d = closed.get();
        // The payment's row lock first: two disputes closing at once then count each other's outcome.
        balances.lock(new dev.kopek.money.PaymentId(d.paymentId()));
        var siblings = jdbc.sql("""
                SELECT count(*) FILTER (WHERE status = :open) AS open, count(*) FILTER (WHERE status = :lost) AS lost
                  FROM disputes WHERE payment_id = :payment
                """)
                .param("open", DisputeStatus.OPEN.name())
                .param("lost", DisputeStatus.LOST.name())
                .param("payment", d.paymentId())
                .query((rs, row) -> new long[] {rs.getLong("open"), rs.getLong("lost")})
                .single();
        balances.disputeClosed(
                new dev.kopek.money.PaymentId(d.paymentId()),
                d.id(),
                d.amount(),
                won,
                siblings[0] > 0,
                siblings[1] > 0);
        announce(d);
        return NotificationResult.APPLIED;
    }

    private void announce(Dispute d) {
        events.write(event(
                d.status().eventType(),
                d.id(),
                d.paymentId(),
                d.merchant(),
                d.version(),
                d.status().apiName(),
                d.amount(),
                d.currency(),
                d.reason(),
                d.pspDisputeId(),
                clock));
    }

    /** The stored names of {@code states}, for a compare-and-set's {@code IN} list. */
    static java.util.List<String> names(java.util.Set<? extends Enum<?>> states) {
        return states.stream().map(Enum::name).toList();
    }

    /** A dispute's (or inquiry's) event, its data the dispute as the API shows it (schema Dispute). */
    static BusinessEvent event(
            String type,
            UUID id,
            UUID paymentId,
            MerchantId merchant,
            int version,
            String status,
            long amount,
            String currency,
            String reason,
            String pspReference,
            Clock clock) {
        Map<String, Object> json = new LinkedHashMap<>();
        String publicId = PrefixedId.format("dp", id);
        json.put("id", publicId);
        json.put("object", "dispute");
        json.put("payment_id", new dev.kopek.money.PaymentId(paymentId).toString());
        json.put("status", status);
        json.put("amount", amount);
        json.put("currency", currency);
        json.put("reason", reason);
        json.put("psp_reference", pspReference);
        return new BusinessEvent(
                type, "dispute", id, publicId, merchant, version, JSON.writeValueAsString(json), clock.instant());
    }

    private static Dispute map(java.sql.ResultSet rs, int row) throws java.sql.SQLException {
        return new Dispute(
                rs.getObject("id", UUID.class),
                rs.getObject("payment_id", UUID.class),
                new dev.kopek.money.MerchantId(rs.getObject("merchant_id", UUID.class)),
                rs.getString("psp_dispute_id"),
                rs.getLong("amount"),
                rs.getString("currency"),
                rs.getString("reason"),
                DisputeStatus.valueOf(rs.getString("status")),
                rs.getInt("version"));
    }
}

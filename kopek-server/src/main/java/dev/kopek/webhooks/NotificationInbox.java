package dev.kopek.webhooks;

import dev.kopek.disputes.Disputes;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.payments.NotificationResult;
import dev.kopek.payments.PaymentOperations;
import dev.kopek.payments.PaymentService;
import dev.kopek.platform.Db;
import dev.kopek.psp.NotificationCheck;
import dev.kopek.psp.PaymentProvider;
import dev.kopek.psp.PspNotification;
import dev.kopek.refunds.Refunds;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;

/**
 * Receives PSP notifications. Order of work: verify the signature (nothing is stored for a bad one), store the
 * raw notification under its unique event id (a duplicate stops here), then apply it. Applying happens after the
 * store commits, so a failure while applying leaves it waiting for {@link #retryWaiting}, never lost.
 */
@Service
public class NotificationInbox {

    private static final Logger log = LoggerFactory.getLogger(NotificationInbox.class);
    private static final int RETRY_BATCH = 100;

    /** What receiving one notification came to. */
    public sealed interface Receipt {
        Receipt INVALID = Plain.INVALID;
        Receipt DUPLICATE = Plain.DUPLICATE;
        Receipt ACCEPTED = Plain.ACCEPTED;

        enum Plain implements Receipt { INVALID, DUPLICATE, ACCEPTED }

        /** Correctly signed, but a field cannot be stored or applied; nothing was stored. */
        record Malformed(String field, String reason) implements Receipt {
        }
    }

    private final PaymentProvider psp;
    private final PaymentService payments;
    private final PaymentOperations operations;
    private final Refunds refunds;
    private final Disputes disputes;
    private final JdbcClient jdbc;
    private final MeterRegistry meters;
    private final Clock clock;
    private final boolean workersEnabled;

    NotificationInbox(PaymentProvider psp, PaymentService payments, PaymentOperations operations, Refunds refunds,
            Disputes disputes, JdbcClient jdbc, MeterRegistry meters, Clock clock,
            @org.springframework.beans.factory.annotation.Value("${kopek.reconciler.enabled:true}") boolean enabled) {
        this.psp = psp;
        this.payments = payments;
        this.operations = operations;
        this.refunds = refunds;
        this.disputes = disputes;
        this.jdbc = jdbc;
        this.meters = meters;
        this.clock = clock;
        this.workersEnabled = enabled;
    }

    public Receipt receive(String signatureHeader, String body) {
        PspNotification n;
        switch (psp.verifyNotification(signatureHeader, body)) {
            case NotificationCheck.Invalid invalid -> {
                meters.counter("kopek.webhooks.rejected").increment();
                return Receipt.INVALID;
            }
            case NotificationCheck.Malformed malformed -> {
                meters.counter("kopek.webhooks.rejected").increment();
                return new Receipt.Malformed(malformed.field(), malformed.reason());
            }
            case NotificationCheck.Valid valid -> n = valid.notification();
        }
        Receipt.Malformed unfit = NotificationFields.unfit(n);
        if (unfit != null) {
            meters.counter("kopek.webhooks.rejected").increment();
            return unfit;
        }
        UUID id = TimeOrderedIds.next(clock);
        int stored = jdbc.sql("""
                INSERT INTO psp_notifications (id, provider, event_id, type, psp_reference, provider_key, payload,
                                               received_at)
                VALUES (:id, :provider, :event, :type, :ref, :key, :payload, :now)
                ON CONFLICT (provider, event_id) DO NOTHING
                """)
                .param("id", id).param("provider", psp.name()).param("event", n.eventId()).param("type", n.type())
                .param("ref", n.objectId()).param("key", n.providerKey()).param("payload", body)
                .param("now", Db.at(clock.instant()))
                .update();
        if (stored == 0) {
            meters.counter("kopek.webhooks.duplicates").increment();
            return Receipt.DUPLICATE;
        }
        process(id, n);
        return Receipt.ACCEPTED;
    }

    private void process(UUID id, PspNotification n) {
        NotificationResult result;
        try {
            result = apply(n);
        } catch (RuntimeException e) {
            log.error("notification {} ({}) could not be applied; it waits for the next pass", n.eventId(), n.type(), e);
            return;
        }
        if (result == NotificationResult.RETRY) {
            return;
        }
        if (result == NotificationResult.CONFLICT) {
            meters.counter("kopek.webhooks.conflicts").increment();
            log.error("notification {} ({}) contradicts Kopek's final state of {}; recorded, nothing changed",
                    n.eventId(), n.type(), n.objectId());
        }
        jdbc.sql("UPDATE psp_notifications SET processed_at = :now, outcome = :outcome WHERE id = :id")
                .param("now", Db.at(clock.instant())).param("outcome", result.name().toLowerCase(Locale.ROOT))
                .param("id", id).update();
        meters.counter("kopek.webhooks.processed", "outcome", result.name().toLowerCase(Locale.ROOT)).increment();
    }

    private NotificationResult apply(PspNotification n) {
        return switch (n.objectType()) {
            case "charge" -> n.providerKey() == null ? NotificationResult.IGNORED
                    : payments.applyNotification(n.providerKey(), n.outcome());
            case "capture", "void" -> n.providerKey() == null ? NotificationResult.IGNORED
                    : operations.applyNotification(n.providerKey(), n.outcome());
            case "refund" -> n.providerKey() == null ? NotificationResult.IGNORED
                    : refunds.applyNotification(n.providerKey(), n.outcome());
            case "dispute" -> disputes.apply(n);
            default -> NotificationResult.IGNORED;
        };
    }

    @Scheduled(fixedDelayString = "${kopek.reconciler.interval:5s}")
    void scheduled() {
        if (workersEnabled) {
            retryWaiting();
        }
    }

    /** Applies notifications that failed, raced an owner, or arrived before the object they are about. */
    public int retryWaiting() {
        List<Waiting> waiting = jdbc.sql("""
                SELECT id, payload FROM psp_notifications
                 WHERE processed_at IS NULL OR outcome = 'unmatched'
                 ORDER BY received_at LIMIT :limit
                """)
                .param("limit", RETRY_BATCH)
                .query((rs, row) -> new Waiting(rs.getObject("id", UUID.class), rs.getString("payload"))).list();
        int applied = 0;
        for (Waiting w : waiting) {
            process(w.id(), psp.readVerifiedNotification(w.payload()));
            applied++;
        }
        return applied;
    }

    private record Waiting(UUID id, String payload) {
    }
}

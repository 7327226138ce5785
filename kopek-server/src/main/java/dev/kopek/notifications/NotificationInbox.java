package dev.kopek.notifications;

import dev.kopek.disputes.Disputes;
import dev.kopek.money.MerchantId;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.payments.ManualReviewRequired;
import dev.kopek.payments.NotificationResult;
import dev.kopek.payments.OperationRunner;
import dev.kopek.payments.PaymentService;
import dev.kopek.platform.DatabaseFailures;
import dev.kopek.platform.DatabaseOutages;
import dev.kopek.platform.Db;
import dev.kopek.psp.NotificationCheck;
import dev.kopek.psp.NotificationSource;
import dev.kopek.psp.PaymentProvider;
import dev.kopek.psp.PaymentProviders;
import dev.kopek.psp.PspNotification;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Receives PSP notifications. Order of work: verify the signature (nothing is stored for a bad one), store the
 * raw notification under its unique event id (a duplicate stops here), then apply it. Applying happens after the
 * store commits, so a failure while applying leaves it waiting for {@link #retryWaiting}, never lost.
 */
@Service
public class NotificationInbox {

    private static final Logger log = LoggerFactory.getLogger(NotificationInbox.class);
    private static final String WORKER = "notification retries";
    private static final int RETRY_BATCH = 100;
    /** How long the receiving request has to apply a notification before the retry pass may take it. */
    private static final java.time.Duration CLAIM = java.time.Duration.ofSeconds(30);

    private static final java.time.Duration BASE_BACKOFF = java.time.Duration.ofSeconds(5);
    private static final java.time.Duration MAX_BACKOFF = java.time.Duration.ofHours(1);

    /** What receiving one notification came to. */
    public sealed interface Receipt {
        Receipt INVALID = Plain.INVALID;
        Receipt DUPLICATE = Plain.DUPLICATE;
        Receipt ACCEPTED = Plain.ACCEPTED;

        enum Plain implements Receipt {
            INVALID,
            DUPLICATE,
            ACCEPTED
        }

        /** Correctly signed, but a field cannot be stored or applied; nothing was stored. */
        record Malformed(String field, String reason) implements Receipt {}
    }

    private final PaymentProviders psps;
    private final PaymentService payments;
    private final OperationRunner operations;
    private final Disputes disputes;
    private final JdbcClient jdbc;
    private final MeterRegistry meters;
    private final Clock clock;
    private final boolean workersEnabled;
    private final int maxTries;
    private final TransactionTemplate tx;
    private final ApplicationEventPublisher publisher;
    private final DatabaseOutages outages;

    NotificationInbox(
            PaymentProviders psps,
            PaymentService payments,
            OperationRunner operations,
            Disputes disputes,
            JdbcClient jdbc,
            MeterRegistry meters,
            Clock clock,
            @Value("${kopek.reconciler.enabled:true}") boolean enabled,
            @Value("${kopek.notifications.max-tries:10}") int maxTries,
            TransactionTemplate tx,
            ApplicationEventPublisher publisher,
            DatabaseOutages outages) {
        this.outages = outages;
        this.psps = psps;
        this.payments = payments;
        this.operations = operations;
        this.disputes = disputes;
        this.jdbc = jdbc;
        this.meters = meters;
        this.clock = clock;
        this.workersEnabled = enabled;
        if (maxTries < 1 || maxTries > 100) {
            throw new IllegalArgumentException("kopek.notifications.max-tries: 1–100");
        }
        this.maxTries = maxTries;
        this.tx = tx;
        this.publisher = publisher;
    }

    /** A notification from Kopek's configured PSP, verified with its configured secrets. */
    public Receipt receive(String signatureHeader, String body) {
        PaymentProvider psp = psps.configured();
        return receive(psp, NotificationSource.configured(psp.name()), signatureHeader, body);
    }

    /**
     * A notification verified by {@code psp}: the configured adapter, or a merchant's own (its own secrets). It
     * speaks only for {@code source}'s account: it may move only objects held there (L11).
     */
    public Receipt receive(PaymentProvider psp, NotificationSource source, String signatureHeader, String body) {
        PspNotification n;
        switch (psp.verifyNotification(signatureHeader, body)) {
            case NotificationCheck.Invalid invalid -> {
                meters.counter("kopek.notifications.rejected").increment();
                return Receipt.INVALID;
            }
            case NotificationCheck.Malformed malformed -> {
                meters.counter("kopek.notifications.rejected").increment();
                return new Receipt.Malformed(malformed.field(), malformed.reason());
            }
            case NotificationCheck.Valid valid -> n = valid.notification();
        }
        Receipt.Malformed unfit = NotificationFields.unfit(n);
        if (unfit != null) {
            meters.counter("kopek.notifications.rejected").increment();
            return unfit;
        }
        UUID id = TimeOrderedIds.next(clock);
        int stored = jdbc.sql("""
                INSERT INTO psp_notifications (id, provider, merchant_id, event_id, type, psp_reference, provider_key,
                                               payload, received_at, tries, next_try_at)
                VALUES (:id, :provider, :merchant, :event, :type, :ref, :key, :payload, :now, 1, :nextTry)
                ON CONFLICT (provider, merchant_id, event_id) DO NOTHING
                """)
                .param("id", id)
                .param("provider", psp.name())
                .param("merchant", source.merchant().map(MerchantId::value).orElse(null))
                .param("event", n.eventId())
                .param("type", n.type())
                .param("ref", n.objectId())
                .param("key", n.providerKey())
                .param("payload", body)
                .param("now", Db.at(clock.instant()))
                .param("nextTry", Db.at(clock.instant().plus(CLAIM)))
                .update();
        if (stored == 0) {
            meters.counter("kopek.notifications.duplicates").increment();
            return Receipt.DUPLICATE;
        }
        if (!process(id, n, source)) {
            // Not done (it came before its object, or applying failed): the retry pass may take it at once; from
            // then on each try backs off.
            jdbc.sql("UPDATE psp_notifications SET next_try_at = :now WHERE id = :id AND tries = 1")
                    .param("now", Db.at(clock.instant()))
                    .param("id", id)
                    .update();
        }
        return Receipt.ACCEPTED;
    }

    /** Applies one notification; true when it is done with (applied, ignored, a conflict), false when it waits. */
    private boolean process(UUID id, PspNotification n, NotificationSource source) {
        NotificationResult result;
        try {
            result = apply(n, source);
        } catch (RuntimeException e) {
            if (DatabaseFailures.of(e).isPresent()) {
                // Stored, not applied: the request is answered 503 (the PSP sends it again, a duplicate then) and
                // the retry pass applies it once the database is back.
                throw e;
            }
            log.error(
                    "notification {} ({}) could not be applied; it waits for the next pass", n.eventId(), n.type(), e);
            return false;
        }
        if (result == NotificationResult.RETRY) {
            return false;
        }
        if (result == NotificationResult.CONFLICT) {
            meters.counter("kopek.notifications.conflicts").increment();
            log.error(
                    "notification {} ({}) contradicts Kopek's final state of {}; recorded, nothing changed",
                    n.eventId(),
                    n.type(),
                    n.objectId());
        }
        if (result == NotificationResult.FOREIGN) {
            meters.counter("kopek.notifications.foreign").increment();
            log.warn(
                    "notification {} ({}) from the {} names an object that account does not hold; refused, nothing"
                            + " changed",
                    n.eventId(),
                    n.type(),
                    source);
        }
        boolean done = result != NotificationResult.UNMATCHED;
        jdbc.sql("""
                UPDATE psp_notifications
                   SET processed_at = :now, outcome = :outcome,
                       next_try_at = CASE WHEN :done THEN NULL ELSE next_try_at END
                 WHERE id = :id
                """)
                .param("now", Db.at(clock.instant()))
                .param("outcome", result.name().toLowerCase(Locale.ROOT))
                .param("done", done)
                .param("id", id)
                .update();
        meters.counter("kopek.notifications.processed", "outcome", result.name().toLowerCase(Locale.ROOT))
                .increment();
        return done;
    }

    private NotificationResult apply(PspNotification n, NotificationSource source) {
        return switch (n.objectType()) {
            case "charge" ->
                n.providerKey() == null
                        ? NotificationResult.IGNORED
                        : payments.applyNotification(source, n.providerKey(), n.outcome());
            case "capture", "void", "refund" ->
                n.providerKey() == null
                        ? NotificationResult.IGNORED
                        : operations.applyNotification(source, n.providerKey(), n.outcome());
            case "dispute" -> disputes.apply(n, source);
            default -> NotificationResult.IGNORED;
        };
    }

    @Scheduled(fixedDelayString = "${kopek.reconciler.interval:5s}")
    void scheduled() {
        if (!workersEnabled || !outages.mayRun(WORKER)) {
            return;
        }
        try {
            retryWaiting();
            outages.succeeded(WORKER);
        } catch (RuntimeException e) {
            if (!outages.failed(WORKER, e)) {
                throw e;
            }
        }
    }

    /**
     * Applies notifications that failed, raced an owner, or arrived before the object they are about. Rows are
     * claimed (one UPDATE, SKIP LOCKED) in the order their next try is due; a claim pushes that time back by the
     * backoff, so a row that keeps failing moves behind the rest and never starves them. A row still not done after
     * {@code maxTries} tries is dead-lettered.
     */
    public int retryWaiting() {
        List<Waiting> claimed = jdbc.sql("""
                UPDATE psp_notifications n
                   SET tries = n.tries + 1,
                       next_try_at = :now + make_interval(secs => least(:capSeconds,
                           :baseSeconds * power(2, least(n.tries, 20))))
                  FROM (SELECT id FROM psp_notifications
                         WHERE (processed_at IS NULL OR outcome = 'unmatched') AND next_try_at <= :now
                         ORDER BY next_try_at
                         LIMIT :limit
                           FOR UPDATE SKIP LOCKED) due
                 WHERE n.id = due.id
                RETURNING n.id, n.provider, n.merchant_id, n.payload, n.tries, n.event_id, n.type
                """)
                .param("now", Db.at(clock.instant()))
                .param("capSeconds", (double) MAX_BACKOFF.toSeconds())
                .param("baseSeconds", (double) BASE_BACKOFF.toSeconds())
                .param("limit", RETRY_BATCH)
                .query((rs, row) -> new Waiting(
                        rs.getObject("id", UUID.class),
                        source(rs),
                        rs.getString("payload"),
                        rs.getInt("tries"),
                        rs.getString("event_id"),
                        rs.getString("type")))
                .list();
        int done = 0;
        for (Waiting w : claimed) {
            // The row keeps whose account it came from: a retry is held to the same account as the first try.
            if (process(w.id(), psps.readVerifiedNotification(w.source().provider(), w.payload()), w.source())) {
                done++;
            } else if (w.tries() >= maxTries) {
                deadLetter(w);
            }
        }
        return done;
    }

    /** Gives up on a notification: out of the queue, counted, and in front of a person. */
    private void deadLetter(Waiting w) {
        tx.executeWithoutResult(status -> {
            int marked = jdbc.sql("""
                    UPDATE psp_notifications SET outcome = 'dead', processed_at = :now, next_try_at = NULL
                     WHERE id = :id AND (processed_at IS NULL OR outcome = 'unmatched')
                    """)
                    .param("now", Db.at(clock.instant()))
                    .param("id", w.id())
                    .update();
            if (marked == 1) {
                publisher.publishEvent(ManualReviewRequired.notification(
                        w.id(),
                        "PSP notification " + w.eventId() + " (" + w.type() + ") could not be applied after "
                                + w.tries() + " tries"));
            }
        });
        meters.counter("kopek.notifications.dead_lettered").increment();
        log.error(
                "notification {} ({}) dead-lettered after {} tries; a review item was opened",
                w.eventId(),
                w.type(),
                w.tries());
    }

    private static NotificationSource source(ResultSet rs) throws SQLException {
        UUID merchant = rs.getObject("merchant_id", UUID.class);
        String provider = rs.getString("provider");
        return merchant == null
                ? NotificationSource.configured(provider)
                : NotificationSource.merchant(provider, new MerchantId(merchant));
    }

    private record Waiting(
            UUID id, NotificationSource source, String payload, int tries, String eventId, String type) {}
}

package dev.kopek.reconciliation;

import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.idempotency.KeyRecord;
import dev.kopek.payments.AuthorizationExpiry;
import dev.kopek.payments.OperationRunner;
import dev.kopek.payments.PaymentAnswer;
import dev.kopek.payments.PaymentService;
import dev.kopek.payments.domain.OperationKind;
import dev.kopek.platform.DatabaseFailures;
import dev.kopek.platform.DatabaseOutages;
import dev.kopek.platform.LogContext;
import dev.kopek.platform.RecoveryMeters;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Finds payments, captures, voids and refunds whose owner died (lease expired), whose outcome was unknown (grace
 * passed) or that nobody started yet (a refund whose dispatch was lost), and runs each through the same fenced
 * take-over a client retry uses: across threads and instances one wins each, asks the PSP by key (or sends a
 * refund never sent), and records the outcome. Authorizations past their expiry are closed.
 */
@Component
@EnableConfigurationProperties(ReconciliationProperties.class)
public class StuckAttemptReconciler {

    private static final Logger log = LoggerFactory.getLogger(StuckAttemptReconciler.class);
    private static final String WORKER = "reconciler";

    private final IdempotencyKeys keys;
    private final PaymentService payments;
    private final OperationRunner operations;
    private final AuthorizationExpiry expiry;
    private final ReconciliationProperties properties;
    private final MeterRegistry meters;
    private final Clock clock;
    private final DatabaseOutages outages;

    StuckAttemptReconciler(
            IdempotencyKeys keys,
            PaymentService payments,
            OperationRunner operations,
            AuthorizationExpiry expiry,
            ReconciliationProperties properties,
            MeterRegistry meters,
            Clock clock,
            DatabaseOutages outages) {
        this.meters = meters;
        this.clock = clock;
        this.outages = outages;
        this.keys = keys;
        this.payments = payments;
        this.operations = operations;
        this.expiry = expiry;
        this.properties = properties;
    }

    @Scheduled(
            fixedDelayString = "${kopek.reconciler.interval:5s}",
            initialDelayString = "${kopek.reconciler.interval:5s}")
    void scheduled() {
        if (!properties.enabled() || !outages.mayRun(WORKER)) {
            return;
        }
        try {
            reconcileOnce();
            outages.succeeded(WORKER);
        } catch (RuntimeException e) {
            if (!outages.failed(WORKER, e)) {
                throw e;
            }
        }
    }

    /** One pass over every kind of stuck work; returns how many items this worker took over. */
    public int reconcileOnce() {
        int resumed = resume(PaymentService.OPERATION, payments::recover);
        for (OperationKind kind : OperationKind.values()) {
            resumed += resume(kind.keySpace(), operations::recover);
        }
        step("authorization expiry", () -> expiry.expireDue(properties.batchSize()));
        return resumed;
    }

    /**
     * Each kind of work is isolated: a failure in one never skips the others in this pass — unless the database is
     * away, which ends the pass (every other step would fail the same way); the next pass resumes.
     */
    private int step(String what, java.util.function.IntSupplier work) {
        try {
            return work.getAsInt();
        } catch (RuntimeException e) {
            if (DatabaseFailures.of(e).isPresent()) {
                throw e;
            }
            log.error("reconciler step '{}' failed; the rest of the pass goes on", what, e);
            return 0;
        }
    }

    private int resume(String operation, Function<KeyRecord, Optional<?>> recover) {
        int resumed = 0;
        for (KeyRecord stuck : keys.findRecoverable(operation, properties.batchSize())) {
            LogContext.clearPaymentFields();
            IdempotencyKeys.logContext(stuck.clientKey(), stuck.attempt(), stuck.resourceId());
            try {
                Optional<?> answer = recover.apply(stuck);
                if (answer.isPresent()) {
                    resumed++;
                }
                if (answer.orElse(null) instanceof PaymentAnswer.Final) {
                    RecoveryMeters.leaseExpiryToFinal(
                            meters,
                            RecoveryMeters.kindOfKeySpace(operation),
                            Duration.between(stuck.leaseUntil(), clock.instant()));
                }
            } catch (RuntimeException e) {
                if (DatabaseFailures.of(e).isPresent()) {
                    LogContext.clearPaymentFields();
                    throw e;
                }
                // The lease expires again and the next pass, here or elsewhere, retries.
                log.error("reconciling {} {} failed; it stays for the next pass", operation, stuck.resourceId(), e);
            }
        }
        LogContext.clearPaymentFields();
        return resumed;
    }
}

package dev.kopek.reconciliation;

import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.idempotency.KeyRecord;
import dev.kopek.payments.PaymentService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Finds attempts whose owner died (PENDING, lease expired) or whose outcome was unknown (grace passed) and
 * resumes each through the same fenced take-over a client retry uses: across threads and instances one wins
 * each, asks the PSP by key, and settles.
 */
@Component
@EnableConfigurationProperties(ReconciliationProperties.class)
public class StuckAttemptReconciler {

    private static final Logger log = LoggerFactory.getLogger(StuckAttemptReconciler.class);

    private final IdempotencyKeys keys;
    private final PaymentService payments;
    private final ReconciliationProperties properties;

    StuckAttemptReconciler(IdempotencyKeys keys, PaymentService payments, ReconciliationProperties properties) {
        this.keys = keys;
        this.payments = payments;
        this.properties = properties;
    }

    @Scheduled(fixedDelayString = "${kopek.reconciler.interval:5s}", initialDelayString = "${kopek.reconciler.interval:5s}")
    void scheduled() {
        if (properties.enabled()) {
            reconcileOnce();
        }
    }

    /** One pass; returns how many attempts this worker took over. */
    public int reconcileOnce() {
        int resumed = 0;
        for (KeyRecord stuck : keys.findRecoverable(PaymentService.OPERATION, properties.batchSize())) {
            try {
                if (payments.recover(stuck).isPresent()) {
                    resumed++;
                }
            } catch (RuntimeException e) {
                // The lease expires again and the next pass, here or elsewhere, retries.
                log.error("reconciling payment {} failed; it stays for the next pass", stuck.resourceId(), e);
            }
        }
        return resumed;
    }
}

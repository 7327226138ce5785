package dev.kopek.reconciliation;

import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.platform.DatabaseOutages;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/** Deletes completed keys past retention in bounded batches. Unfinished keys are never deleted. */
@Component
public class KeyCleanup {

    private static final Logger log = LoggerFactory.getLogger(KeyCleanup.class);
    private static final String WORKER = "key cleanup";
    private static final int MAX_BATCHES_PER_RUN = 100;

    private final IdempotencyKeys keys;
    private final ReconciliationProperties properties;
    private final DatabaseOutages outages;

    KeyCleanup(IdempotencyKeys keys, ReconciliationProperties properties, DatabaseOutages outages) {
        this.keys = keys;
        this.properties = properties;
        this.outages = outages;
    }

    @Scheduled(fixedDelayString = "${kopek.reconciler.cleanup-interval:1h}", initialDelayString = "1m")
    void scheduled() {
        if (!properties.enabled()) {
            return;
        }
        try {
            cleanOnce();
            outages.succeeded(WORKER);
        } catch (RuntimeException e) {
            if (!outages.failed(WORKER, e)) {
                throw e;
            }
        }
    }

    public int cleanOnce() {
        int total = 0;
        for (int batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
            int deleted = keys.deleteExpired(properties.cleanupBatchSize());
            total += deleted;
            if (deleted < properties.cleanupBatchSize()) {
                break;
            }
        }
        if (total > 0) {
            log.info("deleted {} completed idempotency keys past retention", total);
        }
        return total;
    }
}

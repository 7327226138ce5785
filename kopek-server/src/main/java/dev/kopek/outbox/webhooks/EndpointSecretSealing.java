package dev.kopek.outbox.webhooks;

import dev.kopek.platform.SecretBox;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * At start-up, seals every endpoint secret still in clear (written before V45) and re-seals every one sealed by a
 * retired key under the current key, in batches locked with {@code SKIP LOCKED} so instances starting together
 * share the work. After a rotation, once this has run, the old key can be dropped from KOPEK_SECRETS_OLD_KEYS.
 */
@Component
public class EndpointSecretSealing implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(EndpointSecretSealing.class);
    private static final int BATCH = 200;

    private final EndpointStore endpoints;
    private final SecretBox box;
    private final TransactionTemplate tx;

    EndpointSecretSealing(EndpointStore endpoints, SecretBox box, TransactionTemplate tx) {
        this.endpoints = endpoints;
        this.box = box;
        this.tx = tx;
    }

    @Override
    public void run(ApplicationArguments args) {
        sealAll();
    }

    /** Seals until nothing is left that this instance's keys can open; returns how many rows it sealed. */
    public int sealAll() {
        int total = 0;
        for (int done = sealBatch(); done > 0; done = sealBatch()) {
            total += done;
        }
        if (total > 0) {
            log.info("sealed {} webhook endpoint secrets under key {}", total, box.currentKeyId());
        }
        long unopenable = endpoints.countUnopenable(box.keyIds());
        if (unopenable > 0) {
            log.error("{} webhook endpoint secrets are sealed by a key that is not configured; add it to "
                    + "KOPEK_SECRETS_OLD_KEYS or their deliveries fail", unopenable);
        }
        return total;
    }

    /** One transaction; returns how many rows it sealed (0 when nothing is left). */
    private int sealBatch() {
        Integer sealed = tx.execute(status -> {
            List<EndpointStore.Unsealed> rows = endpoints.lockUnsealed(box.currentKeyId(), box.keyIds(), BATCH);
            for (EndpointStore.Unsealed row : rows) {
                String boundTo = row.id().toString();
                String clear = row.clear() != null ? row.clear() : box.open(row.sealed(), boundTo);
                endpoints.storeSealed(row.id(), box.seal(clear, boundTo));
            }
            return rows.size();
        });
        return sealed == null ? 0 : sealed;
    }
}

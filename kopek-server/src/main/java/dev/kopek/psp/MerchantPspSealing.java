package dev.kopek.psp;

import dev.kopek.platform.SecretBox;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * At start-up, re-seals merchants' PSP credentials sealed by a retired key under the current one, as
 * {@code EndpointSecretSealing} does for webhook secrets: after a KOPEK_SECRETS_KEY rotation, once this has run, the
 * old key can be dropped from KOPEK_SECRETS_OLD_KEYS.
 */
@Component
class MerchantPspSealing implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(MerchantPspSealing.class);
    private static final int BATCH = 200;

    private final MerchantPspStore store;
    private final SecretBox box;
    private final TransactionTemplate tx;

    MerchantPspSealing(MerchantPspStore store, SecretBox box, TransactionTemplate tx) {
        this.store = store;
        this.box = box;
        this.tx = tx;
    }

    @Override
    public void run(ApplicationArguments args) {
        int total = 0;
        for (int done = batch(); done > 0; done = batch()) {
            total += done;
        }
        if (total > 0) {
            log.info("re-sealed the PSP credentials of {} merchants under key {}", total, box.currentKeyId());
        }
    }

    private int batch() {
        Integer done = tx.execute(status -> store.resealBatch(BATCH));
        return done == null ? 0 : done;
    }
}

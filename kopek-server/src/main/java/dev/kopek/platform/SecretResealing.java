package dev.kopek.platform;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * At start-up, seals every secret of every {@link SealedRows} table under the current {@code KOPEK_SECRETS_KEY}, a
 * batch per transaction: after a rotation, once this has run on an instance, the old key can be dropped from
 * {@code KOPEK_SECRETS_OLD_KEYS}. Rows sealed by a key this instance does not hold are left alone and reported.
 */
@Component
public class SecretResealing implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(SecretResealing.class);
    private static final int BATCH = 200;

    private final List<SealedRows> tables;
    private final SecretBox box;
    private final TransactionTemplate tx;

    SecretResealing(List<SealedRows> tables, SecretBox box, TransactionTemplate tx) {
        this.tables = List.copyOf(tables);
        this.box = box;
        this.tx = tx;
    }

    @Override
    public void run(ApplicationArguments args) {
        resealAll();
    }

    /** Seals until nothing is left that this instance's keys can open; returns how many rows it sealed in all. */
    public int resealAll() {
        int total = 0;
        for (SealedRows table : tables) {
            total += reseal(table);
        }
        return total;
    }

    private int reseal(SealedRows table) {
        int total = 0;
        for (int done = batch(table); done > 0; done = batch(table)) {
            total += done;
        }
        if (total > 0) {
            log.info("sealed {} {} under key {}", total, table.what(), box.currentKeyId());
        }
        long unopenable = table.countUnopenable();
        if (unopenable > 0) {
            log.error(
                    "{} {} are sealed by a key that is not configured; add it to KOPEK_SECRETS_OLD_KEYS or they "
                            + "cannot be used",
                    unopenable,
                    table.what());
        }
        return total;
    }

    private int batch(SealedRows table) {
        Integer done = tx.execute(status -> table.resealBatch(BATCH));
        return done == null ? 0 : done;
    }
}

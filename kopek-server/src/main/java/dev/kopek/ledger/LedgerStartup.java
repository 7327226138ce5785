package dev.kopek.ledger;

import dev.kopek.ledger.jdbc.BalanceStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/** Hands kopek.ledger.hot-shards to the database, where the balance projection reads it on every posting. */
@Component
class LedgerStartup implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(LedgerStartup.class);

    private final BalanceStore balances;
    private final LedgerProperties properties;

    LedgerStartup(BalanceStore balances, LedgerProperties properties) {
        this.balances = balances;
        this.properties = properties;
    }

    @Override
    public void run(ApplicationArguments args) {
        balances.setHotShards(properties.hotShards());
        log.info("ledger: platform accounts spread over {} balance shards", properties.hotShards());
    }
}

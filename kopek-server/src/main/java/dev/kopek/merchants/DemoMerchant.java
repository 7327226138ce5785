package dev.kopek.merchants;

import java.io.PrintStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The quickstart's merchant. A fresh database gets one, and its key is printed once (it is stored only as a
 * digest, so it cannot be shown again). {@code KOPEK_DEMO_API_KEY} registers a known key instead.
 */
@Component
class DemoMerchant implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(DemoMerchant.class);
    static final String NAME = "Demo merchant";
    private static final int MIN_KEY_LENGTH = 16;

    private final Merchants merchants;
    private final MerchantsProperties properties;
    private final TransactionTemplate tx;
    private final PrintStream console;

    DemoMerchant(Merchants merchants, MerchantsProperties properties, TransactionTemplate tx) {
        this.merchants = merchants;
        this.properties = properties;
        this.tx = tx;
        this.console = System.out;
    }

    @Override
    public void run(ApplicationArguments args) {
        if (!properties.demoEnabled()) {
            return;
        }
        String known =
                properties.demoApiKey() == null || properties.demoApiKey().isBlank() ? null : properties.demoApiKey();
        if (known != null && (known.length() < MIN_KEY_LENGTH || !known.chars().allMatch(c -> c > 32 && c < 127))) {
            throw new IllegalStateException("KOPEK_DEMO_API_KEY must be at least " + MIN_KEY_LENGTH
                    + " printable ASCII characters without spaces");
        }
        IssuedKey issued = tx.execute(status -> ensureDemoMerchant(known));
        if (issued != null && known == null) {
            console.printf(
                    "%n  Kopek demo merchant created. Its test API key (shown once, stored only hashed):%n"
                            + "    %s%n  Use it as: Authorization: Bearer <key>%n%n",
                    issued.secret());
        } else if (issued != null) {
            log.info("demo merchant uses the key from KOPEK_DEMO_API_KEY ({}…)", issued.prefix());
        }
    }

    /** Serialised by an advisory lock, so instances starting together on one database make one demo merchant. */
    private IssuedKey ensureDemoMerchant(String known) {
        merchants
                .jdbc()
                .sql("SELECT pg_advisory_xact_lock(hashtext('kopek.demo-merchant'))")
                .query()
                .singleRow();
        if (known != null && merchants.isRegistered(known)) {
            return null;
        }
        var existing = merchants
                .jdbc()
                .sql("SELECT id FROM merchants WHERE name = :name ORDER BY created_at LIMIT 1")
                .param("name", NAME)
                .query(java.util.UUID.class)
                .optional();
        if (existing.isPresent() && known == null) {
            return null;
        }
        if (existing.isEmpty() && known == null && merchants.count() > 0) {
            return null;
        }
        var merchant = existing.map(dev.kopek.money.MerchantId::new)
                .orElseGet(() -> merchants.create(NAME).id());
        return known == null ? merchants.issueKey(merchant) : merchants.register(merchant, known);
    }
}

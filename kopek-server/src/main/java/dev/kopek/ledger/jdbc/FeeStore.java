package dev.kopek.ledger.jdbc;

import dev.kopek.ledger.Fee;
import dev.kopek.ledger.domain.FeeRule;
import dev.kopek.money.MerchantId;
import dev.kopek.platform.Db;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Fee schedules per merchant and currency. A capture's posting reads its rule in the statement that writes it
 * ({@link JournalStore#inputsPart}), so an admin change applies to the next one.
 */
@Repository
public class FeeStore {

    private final JdbcClient jdbc;

    FeeStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public Fee put(MerchantId merchant, String currency, FeeRule rule, Instant now) {
        jdbc.sql("""
                INSERT INTO ledger_merchant_fees (merchant_id, currency, bps, fixed_minor, updated_at)
                VALUES (:merchant, :currency, :bps, :fixed, :now)
                ON CONFLICT (merchant_id, currency) DO UPDATE
                   SET bps = EXCLUDED.bps, fixed_minor = EXCLUDED.fixed_minor, updated_at = EXCLUDED.updated_at
                """)
                .param("merchant", merchant.value())
                .param("currency", currency)
                .param("bps", rule.bps())
                .param("fixed", rule.fixedMinor())
                .param("now", Db.at(now))
                .update();
        return find(merchant, currency).orElseThrow(() -> new IllegalStateException("fee just written is gone"));
    }

    public Optional<Fee> find(MerchantId merchant, String currency) {
        return all(merchant).stream().filter(f -> f.currency().equals(currency)).findFirst();
    }

    public List<Fee> all(MerchantId merchant) {
        return jdbc.sql("""
                SELECT merchant_id, currency, bps, fixed_minor, updated_at FROM ledger_merchant_fees
                 WHERE merchant_id = :merchant ORDER BY currency
                """)
                .param("merchant", merchant.value())
                .query((rs, n) -> new Fee(
                        new MerchantId(rs.getObject("merchant_id", UUID.class)),
                        rs.getString("currency"),
                        new FeeRule(rs.getInt("bps"), rs.getLong("fixed_minor")),
                        Db.instant(rs, "updated_at")))
                .list();
    }
}

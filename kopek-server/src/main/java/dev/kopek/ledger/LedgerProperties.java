package dev.kopek.ledger;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param hotShards how many balance rows each platform account (PSP receivable, platform revenue: touched by every
 *     payment) spreads its postings over, 1–64. Written to the database at start-up; the last instance started wins,
 *     and any value is safe because a balance is always the sum over all of an account's rows.
 * @param checkEnabled whether this instance runs the scheduled drift check (balances against entries)
 * @param checkInterval pause between drift checks; each reads the whole journal once
 */
@ConfigurationProperties("kopek.ledger")
public record LedgerProperties(
        @DefaultValue("8") int hotShards,
        @DefaultValue("true") boolean checkEnabled,
        @DefaultValue("1h") Duration checkInterval) {

    public static final int MAX_HOT_SHARDS = 64;

    public LedgerProperties {
        if (hotShards < 1 || hotShards > MAX_HOT_SHARDS) {
            throw new IllegalArgumentException("kopek.ledger.hot-shards must be 1–" + MAX_HOT_SHARDS + ", was "
                    + hotShards);
        }
    }
}

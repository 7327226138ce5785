package dev.kopek.ledger;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param projectionInterval pause between balance projector passes (V162); balance reads are exact whatever it is,
 *     it only bounds how many entries a read adds to the projected totals
 * @param checkEnabled whether this instance runs the scheduled drift check (balances against entries)
 * @param checkInterval pause between drift checks; each reads the whole journal once
 * @param maxUnprojectedRead the most journal transactions not projected yet that one balance read sums; beyond it the
 *     read is refused (503 balances_behind) instead of growing for as long as the projector is held back
 */
@ConfigurationProperties("kopek.ledger")
public record LedgerProperties(
        @DefaultValue("200ms") Duration projectionInterval,
        @DefaultValue("true") boolean checkEnabled,
        @DefaultValue("1h") Duration checkInterval,
        @DefaultValue("100000") long maxUnprojectedRead) {

    public LedgerProperties {
        if (projectionInterval.isNegative() || projectionInterval.isZero()) {
            throw new IllegalArgumentException("kopek.ledger.projection-interval must be positive");
        }
        if (maxUnprojectedRead < 1 || maxUnprojectedRead > 10_000_000) {
            throw new IllegalArgumentException("kopek.ledger.max-unprojected-read must be 1..10000000");
        }
    }
}

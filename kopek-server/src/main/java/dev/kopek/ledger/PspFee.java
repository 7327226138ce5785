package dev.kopek.ledger;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * A change of the fee a PSP took on one of its settled movements, as its settlement file reports it. The fee is
 * Kopek's cost: it belongs to no merchant and is never shown in a merchant's ledger.
 *
 * @param sourceId names this change once, so posting it again posts nothing
 * @param paymentId Kopek's payment the fee was taken on, or null when Kopek does not know the PSP's reference
 * @param changeMinor the fee now less the fee posted before; positive charges, negative returns
 */
public record PspFee(UUID sourceId, UUID paymentId, long changeMinor, String currency, Instant occurredAt) {

    public static final String CHARGED = "PSP_FEE_CHARGED";
    public static final String RETURNED = "PSP_FEE_RETURNED";

    public PspFee {
        Objects.requireNonNull(sourceId, "sourceId");
        Objects.requireNonNull(currency, "currency");
        Objects.requireNonNull(occurredAt, "occurredAt");
        if (changeMinor == 0) {
            throw new IllegalArgumentException("a PSP fee posting changes the fee");
        }
    }

    public String kind() {
        return changeMinor > 0 ? CHARGED : RETURNED;
    }
}

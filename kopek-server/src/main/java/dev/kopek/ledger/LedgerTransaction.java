package dev.kopek.ledger;

import dev.kopek.money.MerchantId;
import dev.kopek.money.PrefixedId;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A journal transaction as stored, with its entries.
 *
 * @param merchant the merchant whose money moved; null only for a PSP fee (Kopek's own cost) and its reversal
 * @param kind a {@link dev.kopek.events.MoneyMovement.Kind} name, a {@link PspFee} kind, or {@code REVERSAL}
 * @param amountMinor the movement's amount as reported (entries may add a hold closing beside it)
 * @param reverses for a reversal, the transaction it reverses
 */
public record LedgerTransaction(
        UUID id,
        MerchantId merchant,
        UUID paymentId,
        UUID sourceId,
        String kind,
        long amountMinor,
        String currency,
        UUID reverses,
        String reason,
        Instant occurredAt,
        Instant recordedAt,
        List<LedgerEntry> entries) {

    public static final String ID_PREFIX = "ltx";
    public static final String REVERSAL = "REVERSAL";

    public LedgerTransaction {
        entries = List.copyOf(entries);
    }

    public String publicId() {
        return PrefixedId.format(ID_PREFIX, id);
    }

    public static Optional<UUID> parseId(String text) {
        return PrefixedId.parse(ID_PREFIX, text);
    }
}

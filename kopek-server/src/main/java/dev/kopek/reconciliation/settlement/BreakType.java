package dev.kopek.reconciliation.settlement;

import java.util.Locale;
import java.util.Optional;

/** What kind of difference a pass found between the PSP's file and Kopek. */
public enum BreakType {
    /** The PSP settled money under a reference Kopek has no object for. */
    MISSING_INTERNAL,
    /** Kopek holds money as moved on that day, and no file within the day-boundary tolerance has it. */
    MISSING_AT_PSP,
    /** Both know the reference; the amounts (or currencies) differ. */
    AMOUNT_MISMATCH,
    /** Both know the reference, but Kopek does not hold it as that movement (declined, unknown, another type). */
    STATUS_MISMATCH;

    public String apiName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<BreakType> fromApi(String text) {
        for (BreakType type : values()) {
            if (type.apiName().equalsIgnoreCase(text)) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }
}

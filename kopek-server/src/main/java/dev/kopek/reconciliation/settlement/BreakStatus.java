package dev.kopek.reconciliation.settlement;

import java.util.Locale;

/** CANDIDATE → REPORTED → RESOLVED, or CANDIDATE → CLEARED (or RESOLVED, when reconciliation fixed its cause). */
public enum BreakStatus {
    CANDIDATE,
    REPORTED,
    CLEARED,
    RESOLVED;

    public String apiName() {
        return name().toLowerCase(Locale.ROOT);
    }
}

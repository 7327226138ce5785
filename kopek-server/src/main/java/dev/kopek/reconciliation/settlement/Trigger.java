package dev.kopek.reconciliation.settlement;

import java.util.Locale;

/** Who started a run: the daily schedule or an operator through the admin API. */
public enum Trigger {
    SCHEDULED,
    ADMIN;

    String column() {
        return name().toLowerCase(Locale.ROOT);
    }
}

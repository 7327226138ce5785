package dev.kopek.payments.domain;

import java.util.Locale;

/** The one state machine of captures, voids and refunds: PENDING or UNKNOWN moves to a final state. */
public enum OperationStatus {
    PENDING, UNKNOWN, SUCCEEDED, FAILED;

    public String apiName() {
        return name().toLowerCase(Locale.ROOT);
    }
}

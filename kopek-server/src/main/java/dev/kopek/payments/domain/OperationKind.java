package dev.kopek.payments.domain;

import java.util.Locale;

/** PSP-calling operations on an existing payment, each with its own idempotency key space. */
public enum OperationKind {
    CAPTURE("payment.capture", "cap"), VOID("payment.void", "vd");

    private final String keySpace;
    private final String idPrefix;

    OperationKind(String keySpace, String idPrefix) {
        this.keySpace = keySpace;
        this.idPrefix = idPrefix;
    }

    public String keySpace() {
        return keySpace;
    }

    /** The prefix of its public id: {@code cap_…}, {@code vd_…}. */
    public String idPrefix() {
        return idPrefix;
    }

    public String apiName() {
        return name().toLowerCase(Locale.ROOT);
    }
}

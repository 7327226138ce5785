package dev.kopek.payments.domain;

import java.util.Locale;

/**
 * PSP-calling operations on an existing payment. Each runs fenced by the attempt of a key in its own key space: a
 * capture's or void's is the client's key; a refund's client key is answered (202) in phase 1, so its run has a
 * key of its own, named by the refund's id.
 */
public enum OperationKind {
    CAPTURE("payment.capture", "cap"),
    VOID("payment.void", "vd"),
    REFUND("refund.execute", "re");

    private final String keySpace;
    private final String idPrefix;

    OperationKind(String keySpace, String idPrefix) {
        this.keySpace = keySpace;
        this.idPrefix = idPrefix;
    }

    public String keySpace() {
        return keySpace;
    }

    /** The prefix of its public id: {@code cap_…}, {@code vd_…}, {@code re_…}. */
    public String idPrefix() {
        return idPrefix;
    }

    public String apiName() {
        return name().toLowerCase(Locale.ROOT);
    }
}

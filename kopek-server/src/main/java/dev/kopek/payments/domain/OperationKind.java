package dev.kopek.payments.domain;

import java.util.Locale;

/**
 * PSP-calling operations on an existing payment. Each runs fenced by the attempt of a key in its own key space: a
 * capture's or void's is the client's key; a refund's client key is answered (202) in phase 1, so its run has a
 * key of its own, named by the refund's id.
 */
public enum OperationKind {
    CAPTURE("payment.capture", "payment.capture", "cap"),
    VOID("payment.void", "payment.void", "vd"),
    REFUND("refund.create", "refund.execute", "re");

    private final String requestKeySpace;
    private final String keySpace;
    private final String idPrefix;

    OperationKind(String requestKeySpace, String keySpace, String idPrefix) {
        this.requestKeySpace = requestKeySpace;
        this.keySpace = keySpace;
        this.idPrefix = idPrefix;
    }

    /** The key space of the client's request: the run's own for a capture or void, not for a refund. */
    public String requestKeySpace() {
        return requestKeySpace;
    }

    /** The key space of the key the run is fenced by. */
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

package dev.kopek.payments.domain;

/** PSP-calling operations on an existing payment, each with its own idempotency key space. */
public enum OperationKind {
    CAPTURE("payment.capture"), VOID("payment.void");

    private final String keySpace;

    OperationKind(String keySpace) {
        this.keySpace = keySpace;
    }

    public String keySpace() {
        return keySpace;
    }
}

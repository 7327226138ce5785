package dev.kopek.refunds;

/** Everything {@code POST /v1/payments/{id}/refunds} can answer. */
public sealed interface RefundAnswer {

    /** Accepted (or replayed): 202 with the pending refund as stored. */
    record Accepted(String body, boolean replayed) implements RefundAnswer {}

    record Refused(int status, String code, String detail) implements RefundAnswer {}

    record KeyReused() implements RefundAnswer {}

    record InFlight(java.time.Duration retryAfter) implements RefundAnswer {}
}

package dev.kopek.payments;

import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.idempotency.KeyRecord;
import dev.kopek.payments.domain.Payment;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

/** Everything a payment operation can answer, as values; the web layer maps each to HTTP. */
public sealed interface PaymentAnswer {

    /** A final answer: the stored status and body, first time or replayed. */
    record Final(int status, String body, boolean replayed) implements PaymentAnswer {}

    /** The PSP's outcome is not known yet: 202 with the current state. */
    record Processing(Payment payment) implements PaymentAnswer {}

    /** The same key is being worked on right now: 409 with Retry-After. */
    record InFlight(Duration retryAfter) implements PaymentAnswer {}

    /** The same key with other business fields: 422. */
    record KeyReused() implements PaymentAnswer {}

    /** The operation is not possible in the payment's present state; nothing was stored. */
    record Refused(int status, String code, String detail) implements PaymentAnswer {}

    /** The intent already has a live or paid attempt under another key: 409. */
    record LiveAttemptExists(String reference) implements PaymentAnswer {}

    /** What a key someone else owns by now answers: its stored answer, the current state, or "in flight". */
    static PaymentAnswer fromKey(KeyRecord key, Supplier<Payment> payment, Instant now) {
        return switch (key.status()) {
            case COMPLETED -> new Final(key.responseCode(), key.responseBody(), true);
            case AWAITING_RESULT -> new Processing(payment.get());
            case IN_PROGRESS -> new InFlight(IdempotencyKeys.retryAfter(key.leaseUntil(), now));
        };
    }
}

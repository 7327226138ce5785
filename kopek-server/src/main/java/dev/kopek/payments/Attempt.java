package dev.kopek.payments;

import dev.kopek.idempotency.ClientKey;
import dev.kopek.money.PaymentId;
import dev.kopek.payments.domain.Payment;
import dev.kopek.psp.ChargeOutcome;
import dev.kopek.psp.LookupResult;
import dev.kopek.psp.PaymentProvider;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * One attempt at the PSP, whatever its kind: a payment's charge or authorization, or a capture, void or refund of
 * one. This is the strategy of {@link AttemptRunner}: what differs per kind — the PSP calls and phase 3 — is here,
 * and every rule of the pipeline (docs/pipeline.md) is in the runner, written once.
 */
interface Attempt {

    /** The payment the money belongs to. */
    PaymentId payment();

    /** The PSP that holds the attempt's key: the payment's merchant's. */
    PaymentProvider psp();

    /** When the attempt was first sent: the PSP's key window runs from here. */
    Instant firstSentAt();

    /** The first call (with the adapter's one retry after a transport failure). */
    ChargeOutcome send();

    /** One more try with the same key, after a lookup found nothing inside the key window. */
    ChargeOutcome sendOnce();

    LookupResult lookup();

    /** Phase 3, fenced by {@code attempt}; throws {@link StaleAttempt} when someone else owns the key by now. */
    PaymentAnswer record(ClientKey ck, int attempt, ChargeOutcome outcome, String reviewReason);

    /** The payment as it is now, for the answer of a key someone else owns. */
    Payment current();

    /**
     * A value read at most once, and only if the attempt needs it: a notification or a person's decision never calls
     * the PSP, so it reads neither the merchant's PSP nor anything else phase 3 does not need. An attempt is used by
     * one thread.
     */
    static <T> Supplier<T> once(Supplier<T> read) {
        return new Supplier<>() {
            private T value;

            @Override
            public T get() {
                if (value == null) {
                    value = read.get();
                }
                return value;
            }
        };
    }
}

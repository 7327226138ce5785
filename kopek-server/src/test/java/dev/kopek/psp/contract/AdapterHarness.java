package dev.kopek.psp.contract;

import dev.kopek.money.Money;
import dev.kopek.psp.PaymentProvider;
import dev.kopek.psp.PspProperties;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;

/**
 * What the adapter contract kit needs from one adapter and its PSP (real or stubbed): the adapter itself, a payment
 * method per kind of answer, the PSP's own record as the oracle, and notifications in the PSP's format. A new adapter
 * passes the kit by implementing this and adding itself to {@link AdapterContractTest#harnesses()} (docs/adapters.md).
 */
public interface AdapterHarness {

    /** The kinds of answer every PSP gives; each harness names the payment method that provokes it. */
    enum Answer {
        /** Approved (captured, or authorized for a manual capture). */
        APPROVE,
        /** Refused by the issuer: a decline with a code. */
        DECLINE,
        /** Refused as a bad request before anything happened. */
        REFUSE,
        /** A server error that proves nothing. */
        SERVER_ERROR,
        /** Rate limited: proves nothing. */
        RATE_LIMIT,
        /** The PSP moves the money, then its answer is lost (timeout or reset). */
        LOST_AFTER_CHARGE,
        /**
         * The PSP keeps the first request under its key running (slow, or held after it charged), so a second with
         * the same key meanwhile is answered "in progress" (a 409): proves nothing.
         */
        CONCURRENT_DUPLICATE,
        /** Nothing listens at the PSP's address ({@link #unreachable}): the connection is refused. */
        REFUSED_CONNECTION,
        /** The PSP waits for the customer (3-D Secure): neither a success nor a failure. */
        REQUIRES_ACTION
    }

    String name();

    PaymentProvider adapter(PspProperties limits, Clock clock);

    String paymentMethod(Answer answer);

    /** Whether the PSP has this kind of answer at all (a PSP without 3-D Secure has no REQUIRES_ACTION). */
    default boolean answers(Answer answer) {
        return true;
    }

    /** The adapter pointed at an address of the PSP's kind where nothing listens ({@link Answer#REFUSED_CONNECTION}). */
    PaymentProvider unreachable(PspProperties limits, Clock clock);

    /** Waits until a request under this provider key has reached the PSP's charge endpoint. */
    default void awaitChargeRequest(String providerKey) throws InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (chargeRequestsUnder(providerKey) == 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no charge request under " + providerKey + " reached the PSP");
            }
            Thread.sleep(5);
        }
    }

    /** Requests that reached the PSP's charge endpoint under this provider key (through the adapter's key). */
    long chargeRequestsUnder(String providerKey);

    /** Charges under this provider key that moved or reserved money at the PSP: the oracle. */
    long chargesUnder(String providerKey);

    /** The amount the PSP recorded for the charge under this key, in the PSP's own units. */
    long amountAtPsp(String providerKey);

    /** The amount in the PSP's documented units, or empty where the PSP cannot carry it exactly. */
    OptionalLong pspUnits(Money money);

    /** The key window the PSP documents. */
    Duration documentedKeyWindow();

    /** Ends a {@link Answer#LOST_AFTER_CHARGE} answer that is still held, if the PSP holds it. */
    void releaseHeld();

    /** A notification body in the PSP's format saying the charge under the key succeeded. */
    String chargeSucceeded(String eventId, String providerKey, String pspReference, Money amount, Instant created);

    /** The signature header value for a body signed at the time given, with the PSP's secret or another. */
    String sign(String body, Instant signedAt, boolean withTheRightSecret);

    /** Resets the PSP between tests. */
    void reset();
}

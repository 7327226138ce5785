package dev.kopek.psp;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one retry every adapter makes after a transport failure: the same request with the same key, after a
 * random pause, only if the budget still leaves time for it, and the pair of tries classified together (L5).
 */
public final class OneRetry {

    private static final Logger log = LoggerFactory.getLogger(OneRetry.class);

    /** One try at the PSP with the given read timeout; an {@link IOException} is a transport failure. */
    @FunctionalInterface
    public interface Call {
        ChargeOutcome send(Duration timeout) throws IOException;
    }

    private OneRetry() {}

    public static ChargeOutcome send(PspProperties limits, String psp, Call call) {
        long deadline = System.nanoTime() + limits.budget().toNanos();
        try {
            return call.send(limits.readTimeout());
        } catch (IOException first) {
            long pauseMillis = ThreadLocalRandom.current()
                    .nextLong(
                            limits.retryPauseMin().toMillis(),
                            limits.retryPauseMax().toMillis() + 1);
            long leftMillis = (deadline - System.nanoTime()) / 1_000_000 - pauseMillis;
            if (leftMillis < limits.connectTimeout().toMillis()) {
                return new ChargeOutcome.Unknown("transport failure, no budget left to retry: " + describe(first));
            }
            log.info("{} transport failure ({}), retrying once with the same key", psp, describe(first));
            if (!pause(pauseMillis)) {
                return new ChargeOutcome.Unknown("interrupted before retry: " + describe(first));
            }
            Duration timeout =
                    Duration.ofMillis(Math.min(leftMillis, limits.readTimeout().toMillis()));
            try {
                return afterTransportFailure(call.send(timeout), first);
            } catch (IOException second) {
                return new ChargeOutcome.Unknown("transport failure after one retry: " + describe(second));
            }
        }
    }

    /**
     * Classifies the pair of tries, not the last answer (L5): after the first try was lost in transport, a
     * refusal of the retry (400/401/403/422) proves only that the retry did nothing. The first may have reached
     * the PSP and moved money, so the pair is unknown and is resolved by a lookup with the same key.
     */
    public static ChargeOutcome afterTransportFailure(ChargeOutcome retried, IOException first) {
        return retried instanceof ChargeOutcome.Failed refused
                ? new ChargeOutcome.Unknown("transport failure (" + describe(first) + "), then the retry was refused ("
                        + refused.reason() + "): the first try may have moved money")
                : retried;
    }

    public static String describe(IOException e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    private static boolean pause(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}

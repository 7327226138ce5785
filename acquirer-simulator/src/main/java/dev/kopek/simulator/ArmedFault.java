package dev.kopek.simulator;

import java.util.Arrays;

/**
 * A fault armed through {@code POST /_sim/faults} for the next capture, void or refund of one charge.
 * They mirror the charge tokens: an after-success fault lets the operation happen and be stored, and
 * only spoils the response; a no-effect fault refuses before anything happens and releases the key.
 */
enum ArmedFault {
    TIMEOUT_AFTER_SUCCESS("timeout_after_success", null, Delivery.HANG),
    RESET_AFTER_SUCCESS("reset_after_success", null, Delivery.DROP),
    ERROR_AFTER_SUCCESS("5xx_after_success", null, Delivery.ERROR_500),
    ERROR_NO_EFFECT("5xx_no_effect", Replies.SERVICE_UNAVAILABLE, Delivery.NORMAL),
    RATE_LIMITED("429", Replies.RATE_LIMITED, Delivery.NORMAL),
    /** The operation is declined: a stored 402 that moves nothing. */
    DECLINED("declined", null, Delivery.NORMAL);

    private final String wireName;
    private final Answer.Reply rejection;
    private final Delivery delivery;

    ArmedFault(String wireName, Answer.Reply rejection, Delivery delivery) {
        this.wireName = wireName;
        this.rejection = rejection;
        this.delivery = delivery;
    }

    static ArmedFault of(String name) {
        return Arrays.stream(values())
                .filter(f -> f.wireName.equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown fault " + name));
    }

    String wireName() {
        return wireName;
    }

    /** The reply of a no-effect fault (nothing happens, key released); null for the others. */
    Answer.Reply rejection() {
        return rejection;
    }

    /** How the stored result of an operation this fault hit is delivered. */
    Delivery delivery() {
        return delivery;
    }
}

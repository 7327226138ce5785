package dev.kopek.simulator;

import java.util.Arrays;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Magic payment-method tokens that make one request misbehave in a chosen way. Any token not listed
 * here behaves like {@code pm_ok}, so real-looking tokens simply succeed.
 */
enum FaultToken {
    OK("pm_ok", false, null, null, Delivery.NORMAL),
    DECLINED("pm_declined", false, null, "card_declined", Delivery.NORMAL),
    INSUFFICIENT_FUNDS("pm_insufficient_funds", false, null, "insufficient_funds", Delivery.NORMAL),
    INVALID("pm_invalid", false, Json.error(400, "invalid_payment_method"), null, Delivery.NORMAL),
    TIMEOUT_AFTER_CHARGE("pm_timeout_after_charge", false, null, null, Delivery.HANG),
    RESET_AFTER_CHARGE("pm_reset_after_charge", false, null, null, Delivery.DROP),
    /**
     * As pm_reset_after_charge, but a repeat of the charge with the same key is refused (422 retry_refused) instead
     * of replayed, as a PSP node that refuses a retry does; a lookup by key still finds the charge.
     */
    RESET_THEN_REFUSED("pm_reset_then_refused", false, null, null, Delivery.DROP),
    SLOW("pm_slow", true, null, null, Delivery.NORMAL),
    ERROR_AFTER_CHARGE("pm_5xx_after_charge", false, null, null, Delivery.ERROR_500),
    ERROR_NO_CHARGE("pm_5xx_no_charge", false, Replies.SERVICE_UNAVAILABLE, null, Delivery.NORMAL),
    RATE_LIMITED("pm_429", false, Replies.RATE_LIMITED, null, Delivery.NORMAL),
    /** Charges like pm_ok; every refund of the charge is declined. */
    REFUND_DECLINED("pm_refund_declined", false, null, null, Delivery.NORMAL),
    /** Answers 202 processing; the charge succeeds webhook_delay_ms later and only a webhook says so. */
    WEBHOOK_ONLY("pm_webhook_only", false, null, null, Delivery.NORMAL),
    /** As pm_webhook_only, but the charge is declined. */
    WEBHOOK_ONLY_DECLINED("pm_webhook_only_declined", false, null, "card_declined", Delivery.NORMAL);

    private static final Map<String, FaultToken> BY_TOKEN =
            Arrays.stream(values()).collect(Collectors.toUnmodifiableMap(t -> t.token, Function.identity()));

    private final String token;
    private final boolean slow;
    private final Answer.Reply rejection;
    private final String declineCode;
    private final Delivery delivery;

    FaultToken(String token, boolean slow, Answer.Reply rejection, String declineCode, Delivery delivery) {
        this.token = token;
        this.slow = slow;
        this.rejection = rejection;
        this.declineCode = declineCode;
        this.delivery = delivery;
    }

    static FaultToken of(String paymentMethod) {
        return BY_TOKEN.getOrDefault(paymentMethod, OK);
    }

    String token() {
        return token;
    }

    /** Sleeps slowMin..slowMax while still holding the key, before the charge is made. */
    boolean slow() {
        return slow;
    }

    /** The reply when the token refuses without charging (nothing stored, key released); else null. */
    Answer.Reply rejection() {
        return rejection;
    }

    /** Non-null when the charge is made but declined. */
    String declineCode() {
        return declineCode;
    }

    Delivery delivery() {
        return delivery;
    }

    /** The outcome is decided later and announced by webhook; the request itself answers 202 processing. */
    boolean asynchronous() {
        return this == WEBHOOK_ONLY || this == WEBHOOK_ONLY_DECLINED;
    }
}

package dev.kopek.psp.stripe;

import dev.kopek.psp.ChargeOutcome;
import dev.kopek.psp.NextAction;
import java.time.Duration;
import java.time.Instant;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stripe's answers mapped to outcomes by meaning (L5), from the error object's {@code type} and {@code code}
 * (Stripe's {@code api_errors} schema, whose types are {@code api_error}, {@code card_error},
 * {@code idempotency_error} and {@code invalid_request_error}) and the PaymentIntent's {@code status}, never from the
 * HTTP class alone:
 * <ul>
 * <li>{@code card_error}: the issuer or Stripe's fraud rules refused: declined, with the decline code;</li>
 * <li>{@code invalid_request_error} (a 401 for a wrong API key included): refused before anything happened: failed
 * — except {@code idempotency_key_in_use} (409, the same key is still running) and {@code lock_timeout}: those prove
 * nothing and are unknown;</li>
 * <li>{@code idempotency_error} (the key was first used with other parameters): the first use may have moved
 * money, so unknown;</li>
 * <li>any 409, any 429 ({@code invalid_request_error} with code {@code rate_limit}), 5xx {@code api_error}, any type
 * the spec does not list: unknown.</li>
 * </ul>
 * A PaymentIntent that {@code requires_action} (3-D Secure) is neither a success nor a failure: it is unknown to
 * Kopek with the reason {@link #REQUIRES_ACTION}, and is resolved when the customer finishes (notification or
 * lookup).
 */
final class StripeResponses {

    /** The reason of an unknown outcome whose PaymentIntent waits for the customer (3-D Secure). */
    static final String REQUIRES_ACTION = "requires_action";
    /** Card authorizations without an explicit {@code capture_before} last 7 days at Stripe. */
    static final Duration DEFAULT_AUTHORIZATION = Duration.ofDays(7);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private StripeResponses() {}

    /** What a PaymentIntent call (create+confirm, capture, cancel) did, from its HTTP answer. */
    static ChargeOutcome intent(int status, String body, Expect expect) {
        JsonNode json = parse(body);
        if (status == 200) {
            return fromIntent(json, expect);
        }
        return fromError(status, json);
    }

    /** What a refund call did. */
    static ChargeOutcome refund(int status, String body) {
        JsonNode json = parse(body);
        return status == 200 ? fromRefund(json) : fromError(status, json);
    }

    /** Which operation the PaymentIntent answer is for: its meaning depends on what was asked. */
    enum Expect {
        CHARGE,
        CAPTURE,
        CANCEL
    }

    static ChargeOutcome fromIntent(JsonNode pi, Expect expect) {
        String id = text(pi, "id");
        if (id == null || !"payment_intent".equals(text(pi, "object"))) {
            return new ChargeOutcome.Unknown("stripe answered 200 without a PaymentIntent");
        }
        String status = text(pi, "status") == null ? "" : text(pi, "status");
        return switch (status) {
            case "succeeded" ->
                expect == Expect.CANCEL
                        ? new ChargeOutcome.Failed("stripe refused the cancel: the PaymentIntent already succeeded")
                        : new ChargeOutcome.Succeeded(id);
            case "requires_capture" ->
                switch (expect) {
                    case CHARGE -> new ChargeOutcome.Authorized(id, captureBefore(pi));
                    // A non-final capture of a multicapture PaymentIntent leaves it capturable.
                    case CAPTURE -> new ChargeOutcome.Succeeded(id);
                    case CANCEL -> new ChargeOutcome.Unknown("stripe answered a cancel with requires_capture");
                };
            case "canceled" ->
                expect == Expect.CANCEL
                        ? new ChargeOutcome.Succeeded(id)
                        : new ChargeOutcome.Failed("the PaymentIntent is canceled ("
                                + orDefault(text(pi, "cancellation_reason"), "no reason") + ")");
            case "requires_payment_method" -> declinedIntent(pi, id);
            case "requires_action" ->
                new ChargeOutcome.Unknown(
                        REQUIRES_ACTION + ": the customer must complete "
                                + orDefault(text(pi.path("next_action"), "type"), "an action") + " for " + id,
                        nextAction(pi));
            case "processing" -> new ChargeOutcome.Unknown("the PaymentIntent " + id + " is still processing");
            default -> new ChargeOutcome.Unknown("stripe answered 200 with status '" + status + "' for " + id);
        };
    }

    /** Stripe's next_action, as Kopek passes it on: its type, and the URL when it is a redirect. */
    private static NextAction nextAction(JsonNode pi) {
        JsonNode action = pi.path("next_action");
        String type = orDefault(text(action, "type"), "unknown");
        return new NextAction(
                type, "redirect_to_url".equals(type) ? text(action.path("redirect_to_url"), "url") : null);
    }

    /** A PaymentIntent back at requires_payment_method after a confirmation: the payment method was refused. */
    private static ChargeOutcome declinedIntent(JsonNode pi, String id) {
        JsonNode error = pi.path("last_payment_error");
        if (!error.isObject()) {
            return new ChargeOutcome.Unknown("the PaymentIntent " + id + " requires a payment method, no error given");
        }
        return new ChargeOutcome.Declined(declineCode(error), id);
    }

    static ChargeOutcome fromRefund(JsonNode refund) {
        String id = text(refund, "id");
        if (id == null || !"refund".equals(text(refund, "object"))) {
            return new ChargeOutcome.Unknown("stripe answered 200 without a refund");
        }
        String status = text(refund, "status") == null ? "" : text(refund, "status");
        return switch (status) {
            case "succeeded" -> new ChargeOutcome.Succeeded(id);
            case "failed", "canceled" ->
                new ChargeOutcome.Failed("stripe refund " + id + " " + status + " ("
                        + orDefault(text(refund, "failure_reason"), "no reason") + ")");
            default -> new ChargeOutcome.Unknown("stripe refund " + id + " is " + status);
        };
    }

    static ChargeOutcome fromError(int status, JsonNode json) {
        JsonNode error = json.path("error");
        String type = orDefault(text(error, "type"), "");
        String code = orDefault(text(error, "code"), "");
        String what = "stripe answered " + status + " " + type + (code.isEmpty() ? "" : " " + code);
        if (status == 429 || status >= 500 || status == 409) {
            return new ChargeOutcome.Unknown(what);
        }
        return switch (type) {
            case "card_error" -> new ChargeOutcome.Declined(declineCode(error), intentId(error));
            case "invalid_request_error" ->
                code.equals("idempotency_key_in_use") || code.equals("lock_timeout")
                        ? new ChargeOutcome.Unknown(what)
                        : new ChargeOutcome.Failed(what);
            default -> new ChargeOutcome.Unknown(what);
        };
    }

    private static String declineCode(JsonNode error) {
        String decline = text(error, "decline_code");
        if (decline != null) {
            return decline;
        }
        return orDefault(text(error, "code"), "card_declined");
    }

    private static String intentId(JsonNode error) {
        String fromIntent = text(error.path("payment_intent"), "id");
        return fromIntent != null ? fromIntent : text(error, "charge");
    }

    /**
     * The authorization's expiry: the card's {@code capture_before} on the expanded latest charge where Stripe
     * gives it, otherwise Stripe's default 7 days from creation.
     */
    private static Instant captureBefore(JsonNode pi) {
        JsonNode before = pi.path("latest_charge")
                .path("payment_method_details")
                .path("card")
                .path("capture_before");
        if (before.isIntegralNumber()) {
            return Instant.ofEpochSecond(before.longValue());
        }
        JsonNode created = pi.path("created");
        Instant from = created.isIntegralNumber() ? Instant.ofEpochSecond(created.longValue()) : Instant.EPOCH;
        return from.plus(DEFAULT_AUTHORIZATION);
    }

    static JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            return JSON.createObjectNode();
        }
        try {
            return JSON.readTree(body);
        } catch (JacksonException e) {
            return JSON.createObjectNode();
        }
    }

    static String text(JsonNode json, String field) {
        JsonNode value = json == null ? null : json.get(field);
        return value != null && value.isString() ? value.stringValue() : null;
    }

    private static String orDefault(String value, String fallback) {
        return value == null ? fallback : value;
    }
}

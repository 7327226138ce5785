package dev.kopek.psp.stripe;

import dev.kopek.money.CurrencyCode;
import dev.kopek.platform.InputText;
import dev.kopek.psp.ChargeOutcome;
import dev.kopek.psp.NotificationCheck;
import dev.kopek.psp.NotificationSignature;
import dev.kopek.psp.PspNotification;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.OptionalLong;
import tools.jackson.databind.JsonNode;

/**
 * Stripe's webhook events: {@code Stripe-Signature: t=<unix s>,v1=<hex HMAC-SHA256(secret, t + "." + body)>[,v1=…]},
 * checked by the one {@link NotificationSignature} against every configured secret (a secret being rolled and its
 * successor both sign while Stripe rolls it); a replay inside the tolerance carries the same event id and is
 * deduplicated by the notification inbox. The events Kopek acts on are mapped to its notification vocabulary:
 * {@code payment_intent.succeeded|amount_capturable_updated|payment_failed} → {@code charge.succeeded|authorized|
 * declined}; {@code refund.*} and {@code charge.refunded} (with its newest refund) → {@code refund.<status>};
 * {@code charge.dispute.*} by the dispute's status: an inquiry ({@code warning_*}) → {@code dispute.inquiry_opened|
 * inquiry_closed}, a chargeback → {@code dispute.opened}, closed → {@code dispute.won|lost} (see
 * {@link #disputeType}). Everything else is recorded under its Stripe type and changes nothing.
 */
final class StripeNotifications {

    static final String HEADER = "Stripe-Signature";
    /** The metadata field Kopek sets on every PaymentIntent and refund: the provider key of the operation. */
    static final String KEY_FIELD = "kopek_provider_key";

    private static final long MAX_EPOCH_SECOND = 253_402_300_799L;

    private StripeNotifications() {}

    static NotificationSignature.Scheme scheme(Duration tolerance) {
        return new NotificationSignature.Scheme(
                HEADER, "v1", NotificationSignature.SignedPayload.TIMESTAMP_DOT_BODY, tolerance);
    }

    /** Signs a body as Stripe does; for tests and the contract kit. */
    static String sign(String secret, long epochSecond, String body) {
        return NotificationSignature.sign(scheme(Duration.ofMinutes(5)), secret, epochSecond, body);
    }

    static NotificationCheck read(String body) {
        JsonNode json = StripeResponses.parse(body);
        var control = InputText.firstControl(json);
        if (control.isPresent()) {
            return new NotificationCheck.Malformed(control.get(), "contains a control character");
        }
        JsonNode created = json.get("created");
        if (created == null
                || !(created.isIntegralNumber()
                        && created.canConvertToLong()
                        && created.longValue() >= 0
                        && created.longValue() <= MAX_EPOCH_SECOND)) {
            return new NotificationCheck.Malformed("created", "is not a Unix time in seconds between 1970 and 9999");
        }
        String id = StripeResponses.text(json, "id");
        String type = StripeResponses.text(json, "type");
        JsonNode object = json.path("data").path("object");
        if (id == null || type == null || !object.isObject() || StripeResponses.text(object, "id") == null) {
            return new NotificationCheck.Invalid("event without id, type or data.object");
        }
        try {
            return new NotificationCheck.Valid(map(id, type, object, Instant.ofEpochSecond(created.longValue()), body));
        } catch (IllegalArgumentException e) {
            return new NotificationCheck.Malformed("data.object", e.getMessage());
        }
    }

    private static PspNotification map(String id, String type, JsonNode object, Instant created, String body) {
        return switch (type) {
            case "payment_intent.succeeded",
                    "payment_intent.amount_capturable_updated",
                    "payment_intent.payment_failed",
                    "payment_intent.canceled",
                    "payment_intent.requires_action",
                    "payment_intent.processing" -> intent(id, type, object, created, body);
            case "charge.refunded" -> chargeRefunded(id, object, created, body);
            case "refund.created", "refund.updated", "refund.failed" ->
                refund(id, object, StripeResponses.text(object, "payment_intent"), created, body);
            case "charge.dispute.created",
                    "charge.dispute.closed",
                    "charge.dispute.updated",
                    "charge.dispute.funds_withdrawn",
                    "charge.dispute.funds_reinstated" -> dispute(id, type, object, created, body);
            default ->
                new PspNotification(
                        id,
                        type,
                        StripeResponses.text(object, "id"),
                        null,
                        null,
                        0,
                        null,
                        null,
                        new ChargeOutcome.Unknown("stripe event " + type + " carries no operation outcome"),
                        created,
                        body);
        };
    }

    private static PspNotification intent(String id, String type, JsonNode pi, Instant created, String body) {
        String piId = StripeResponses.text(pi, "id");
        ChargeOutcome outcome = switch (type) {
            case "payment_intent.succeeded",
                    "payment_intent.amount_capturable_updated",
                    "payment_intent.payment_failed" -> StripeResponses.fromIntent(pi, StripeResponses.Expect.CHARGE);
            default -> new ChargeOutcome.Unknown("stripe event " + type + " carries no charge outcome");
        };
        String kopekType = switch (outcome) {
            case ChargeOutcome.Succeeded s -> "charge.succeeded";
            case ChargeOutcome.Authorized a -> "charge.authorized";
            case ChargeOutcome.Declined d -> "charge.declined";
            case ChargeOutcome.Failed f -> "charge.failed";
            case ChargeOutcome.Unknown u -> "charge." + type.substring(type.indexOf('.') + 1);
        };
        JsonNode received = pi.path("amount_received");
        long amount = received.isIntegralNumber() && received.longValue() > 0
                ? received.longValue()
                : pi.path("amount").asLong(0);
        return new PspNotification(
                id,
                kopekType,
                piId,
                piId,
                metadataKey(pi),
                minor(amount, pi),
                currency(pi),
                null,
                outcome,
                created,
                body);
    }

    /** {@code charge.refunded} names the charge; its newest refund (first in the list) is the one that moved. */
    private static PspNotification chargeRefunded(String id, JsonNode charge, Instant created, String body) {
        JsonNode newest = charge.path("refunds").path("data").path(0);
        String intent = StripeResponses.text(charge, "payment_intent");
        if (!newest.isObject()) {
            return new PspNotification(
                    id,
                    "charge.refunded",
                    StripeResponses.text(charge, "id"),
                    intent,
                    null,
                    0,
                    currency(charge),
                    null,
                    new ChargeOutcome.Unknown("charge.refunded without its refunds"),
                    created,
                    body);
        }
        return refund(id, newest, intent, created, body);
    }

    private static PspNotification refund(String id, JsonNode refund, String intent, Instant created, String body) {
        ChargeOutcome outcome = StripeResponses.fromRefund(refund);
        String status = switch (outcome) {
            case ChargeOutcome.Succeeded s -> "succeeded";
            case ChargeOutcome.Failed f -> "failed";
            case ChargeOutcome.Authorized a -> "pending";
            case ChargeOutcome.Declined d -> "pending";
            case ChargeOutcome.Unknown u -> "pending";
        };
        return new PspNotification(
                id,
                "refund." + status,
                StripeResponses.text(refund, "id"),
                intent != null ? intent : StripeResponses.text(refund, "charge"),
                metadataKey(refund),
                minor(refund.path("amount").asLong(0), refund),
                currency(refund),
                null,
                outcome,
                created,
                body);
    }

    private static PspNotification dispute(String id, String type, JsonNode dispute, Instant created, String body) {
        String status = StripeResponses.text(dispute, "status");
        String intent = StripeResponses.text(dispute, "payment_intent");
        return new PspNotification(
                id,
                disputeType(type, status),
                StripeResponses.text(dispute, "id"),
                intent != null ? intent : StripeResponses.text(dispute, "charge"),
                null,
                minor(dispute.path("amount").asLong(0), dispute),
                currency(dispute),
                StripeResponses.text(dispute, "reason"),
                new ChargeOutcome.Unknown("a dispute carries no operation outcome"),
                created,
                body);
    }

    /**
     * A Stripe dispute event in Kopek's words, by the dispute's status (Stripe's {@code dispute.status}: {@code
     * warning_needs_response}, {@code warning_under_review}, {@code warning_closed}, {@code needs_response},
     * {@code under_review}, {@code won}, {@code lost}; older API versions also {@code charge_refunded}, newer ones
     * {@code prevented}, which is recorded under its own name). The {@code warning_*}
     * statuses are an inquiry: the issuer asks, nothing is withdrawn, so it is {@code dispute.inquiry_opened} and,
     * closed, {@code dispute.inquiry_closed}, never a chargeback. The chargeback is the dispute in a non-warning
     * status: created so, escalated to it ({@code charge.dispute.updated} with {@code needs_response}), or its funds
     * withdrawn ({@code charge.dispute.funds_withdrawn}); each of these is {@code dispute.opened}, which Kopek records
     * once per dispute id. Any other combination is recorded under its own name and changes nothing.
     */
    static String disputeType(String type, String status) {
        boolean inquiry = status != null && status.startsWith("warning_");
        return switch (type) {
            case "charge.dispute.created", "charge.dispute.updated" -> {
                if (inquiry) {
                    // An update of an inquiry whose creation was missed records it; a repeated one changes nothing.
                    yield "warning_closed".equals(status) ? "dispute.inquiry_closed" : "dispute.inquiry_opened";
                }
                yield "needs_response".equals(status) || "under_review".equals(status)
                        ? "dispute.opened"
                        : "dispute." + type.substring("charge.dispute.".length()) + "_" + status;
            }
            case "charge.dispute.funds_withdrawn" -> "dispute.opened";
            case "charge.dispute.closed" ->
                switch (String.valueOf(status)) {
                    case "won" -> "dispute.won";
                    case "lost" -> "dispute.lost";
                    // charge_refunded: older API versions' end of an inquiry by a full refund (the refund is its own
                    // event).
                    case "warning_closed", "charge_refunded" -> "dispute.inquiry_closed";
                    default -> "dispute.closed_" + status;
                };
            default -> "dispute." + type.substring("charge.dispute.".length());
        };
    }

    private static String metadataKey(JsonNode object) {
        return StripeResponses.text(object.path("metadata"), KEY_FIELD);
    }

    private static String currency(JsonNode object) {
        String currency = StripeResponses.text(object, "currency");
        return currency == null ? null : currency.toUpperCase(Locale.ROOT);
    }

    private static long minor(long stripeAmount, JsonNode object) {
        String code = currency(object);
        if (code == null || stripeAmount <= 0) {
            return 0;
        }
        CurrencyCode currency =
                CurrencyCode.parse(code).orElseThrow(() -> new IllegalArgumentException("has an unknown currency"));
        OptionalLong minor = StripeAmounts.fromStripe(stripeAmount, currency);
        if (minor.isEmpty()) {
            throw new IllegalArgumentException("has an amount that is not a whole number of minor units");
        }
        return minor.getAsLong();
    }
}

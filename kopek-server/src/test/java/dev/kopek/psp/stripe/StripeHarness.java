package dev.kopek.psp.stripe;

import dev.kopek.money.Money;
import dev.kopek.psp.PaymentProvider;
import dev.kopek.psp.PspProperties;
import dev.kopek.psp.contract.AdapterHarness;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** The Stripe adapter against {@link StripeStub}. */
public final class StripeHarness implements AdapterHarness {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final StripeStub stub = new StripeStub(Clock.systemUTC());

    @Override
    public String name() {
        return "stripe";
    }

    @Override
    public PaymentProvider adapter(PspProperties limits, Clock clock) {
        return new StripePaymentProvider(properties(stub), limits, clock, dev.kopek.psp.OutboundHeaders.none());
    }

    static StripeProperties properties(StripeStub stub) {
        return new StripeProperties(
                stub.baseUri(),
                StripeStub.SECRET_KEY,
                List.of("whsec_old_being_rolled", StripeStub.WEBHOOK_SECRET),
                Duration.ofMinutes(5),
                "",
                "",
                false);
    }

    @Override
    public String paymentMethod(Answer answer) {
        return switch (answer) {
            case APPROVE -> StripeStub.OK;
            case DECLINE -> StripeStub.DECLINED;
            case REFUSE -> StripeStub.INVALID;
            case SERVER_ERROR -> StripeStub.API_ERROR;
            case RATE_LIMIT -> StripeStub.RATE_LIMITED;
            case LOST_AFTER_CHARGE -> StripeStub.HELD_AFTER_CHARGE;
            // Held after it charged: a repeat with the same key meanwhile is 409 idempotency_key_in_use.
            case CONCURRENT_DUPLICATE -> StripeStub.HELD_AFTER_CHARGE;
            case REFUSED_CONNECTION -> StripeStub.OK;
            case REQUIRES_ACTION -> StripeStub.THREE_D_SECURE;
        };
    }

    @Override
    public PaymentProvider unreachable(PspProperties limits, Clock clock) {
        StripeProperties at = properties(stub);
        return new StripePaymentProvider(
                new StripeProperties(
                        dev.kopek.psp.contract.ClosedPort.uri(),
                        at.secretKey(),
                        at.webhookSecrets(),
                        at.webhookTolerance(),
                        at.apiVersion(),
                        at.returnUrl(),
                        at.multicapture()),
                limits,
                clock,
                dev.kopek.psp.OutboundHeaders.none());
    }

    @Override
    public long chargeRequestsUnder(String providerKey) {
        return stub.requests().stream()
                .filter(r -> r.path().equals("/v1/payment_intents"))
                .filter(r -> StripePaymentProvider.stripeKey(providerKey).equals(r.idempotencyKey()))
                .count();
    }

    @Override
    public long chargesUnder(String providerKey) {
        return stub.intents().values().stream()
                .filter(pi -> providerKey.equals(key(pi)))
                .filter(pi -> pi.path("amount_received").asLong(0) > 0
                        || pi.path("status").asString("").equals("requires_capture"))
                .count();
    }

    @Override
    public long amountAtPsp(String providerKey) {
        return stub.intents().values().stream()
                .filter(pi -> providerKey.equals(key(pi)))
                .findFirst()
                .orElseThrow()
                .path("amount")
                .asLong();
    }

    private static String key(ObjectNode pi) {
        return pi.path("metadata").path(StripeNotifications.KEY_FIELD).asString(null);
    }

    @Override
    public OptionalLong pspUnits(Money money) {
        return StripeAmounts.toStripe(money);
    }

    @Override
    public Duration documentedKeyWindow() {
        return Duration.ofHours(24);
    }

    @Override
    public void releaseHeld() {
        stub.releaseHeld();
    }

    @Override
    public String chargeSucceeded(
            String eventId, String providerKey, String pspReference, Money amount, Instant created) {
        ObjectNode pi = JSON.createObjectNode()
                .put("id", pspReference)
                .put("object", "payment_intent")
                .put("status", "succeeded")
                .put("amount", StripeAmounts.toStripe(amount).orElseThrow())
                .put("amount_received", StripeAmounts.toStripe(amount).orElseThrow())
                .put("currency", StripeAmounts.currency(amount.currency()))
                .put("created", created.getEpochSecond());
        pi.putObject("metadata").put(StripeNotifications.KEY_FIELD, providerKey);
        ObjectNode event = JSON.createObjectNode()
                .put("id", eventId)
                .put("object", "event")
                .put("type", "payment_intent.succeeded")
                .put("created", created.getEpochSecond());
        event.putObject("data").set("object", pi);
        return event.toString();
    }

    @Override
    public String sign(String body, Instant signedAt, boolean withTheRightSecret) {
        return StripeNotifications.sign(
                withTheRightSecret ? StripeStub.WEBHOOK_SECRET : "whsec_someone_else", signedAt.getEpochSecond(), body);
    }

    @Override
    public void reset() {
        stub.reset();
    }

    public StripeStub stub() {
        return stub;
    }
}

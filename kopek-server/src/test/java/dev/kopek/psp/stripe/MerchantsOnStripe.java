package dev.kopek.psp.stripe;

import dev.kopek.money.MerchantId;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.MutableClock;
import java.net.http.HttpRequest;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * One Kopek configured with the simulator, whose merchants may be put on their own Stripe account, all served by one
 * stateful Stripe stub. The test classes that extend it share one Spring context.
 */
abstract class MerchantsOnStripe extends IntegrationTest {

    /** Stripe's time: real time, unless a test sets it back to make Stripe's movements land on a closed day. */
    static final MutableClock STRIPE_TIME = new MutableClock();

    static final StripeStub STRIPE = new StripeStub(STRIPE_TIME);
    /** A retired KOPEK_SECRETS_KEY this Kopek still opens with (KOPEK_SECRETS_OLD_KEYS); base64 of 32 bytes. */
    static final String OLD_SECRETS_KEY = "b2xkLWtvcGVrLXRlc3Qtc2VjcmV0cy1rZXktMDEyMzQ=";

    @DynamicPropertySource
    static void stripe(DynamicPropertyRegistry registry) {
        registry.add("kopek.psp.stripe.api-base", () -> STRIPE.baseUri().toString());
        registry.add("kopek.psp.stripe.return-url", () -> "https://shop.example/after-3ds");
        registry.add("kopek.secrets-old-keys", () -> OLD_SECRETS_KEY);
    }

    @AfterEach
    void resetStripe() {
        STRIPE.reset();
    }

    record Merchant(String id, Api api, String apiKey) {

        UUID uuid() {
            return MerchantId.parse(id).orElseThrow().value();
        }
    }

    Merchant merchant() {
        var merchant = merchants.create("Merchant " + UUID.randomUUID());
        String key = merchants.issueKey(merchant.id()).secret();
        return new Merchant(merchant.id().toString(), new Api(baseUri(), key), key);
    }

    /** A merchant on its own Stripe account, whose webhook endpoint signs with {@code webhookSecret}. */
    Merchant merchantOnStripe(String webhookSecret) {
        return merchantWithPsp(onStripe(webhookSecret));
    }

    /** A merchant on a Stripe account of its own that no other merchant uses, named by its secret key. */
    Merchant onAccount(String secretKey) {
        return merchantWithPsp("{\"provider\":\"stripe\",\"secret_key\":\"" + secretKey
                + "\",\"webhook_secrets\":[\"whsec_own_account\"]}");
    }

    private Merchant merchantWithPsp(String body) {
        Merchant merchant = merchant();
        Api.Response set = putPsp(merchant.id(), body);
        if (set.status() != 200) {
            throw new AssertionError("PUT psp answered " + set.status() + ": " + set.body());
        }
        return merchant;
    }

    Api.Response putPsp(String merchantId, String body) {
        Api admin = admin();
        return admin.send(admin.request("/v1/admin/merchants/" + merchantId + "/psp")
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body))
                .build());
    }

    static String onStripe(String... webhookSecrets) {
        return "{\"provider\":\"stripe\",\"secret_key\":\"" + StripeStub.SECRET_KEY + "\",\"webhook_secrets\":[\""
                + String.join("\",\"", webhookSecrets) + "\"]}";
    }

    static String payment(String reference, long amount, String method, String capture) {
        return "{\"reference\":\"" + reference + "\",\"amount\":" + amount + ",\"currency\":\"EUR\","
                + "\"payment_method\":\"" + method + "\",\"capture_method\":\"" + capture + "\"}";
    }

    Api.Response deliver(String path, String event, String signature) {
        Api anonymous = new Api(baseUri(), null);
        return anonymous.send(anonymous
                .request(path)
                .header("Content-Type", "application/json")
                .header("Stripe-Signature", signature)
                .POST(HttpRequest.BodyPublishers.ofString(event))
                .build());
    }

    /** Signed as Stripe signs, with {@code secret}, at Kopek's current time. */
    String signed(String secret, String event) {
        return StripeNotifications.sign(secret, clock.instant().getEpochSecond(), event);
    }

    /** The PaymentIntent the stub holds for a Kopek payment intent (reference). */
    static JsonNode intentOf(String reference) {
        return STRIPE.intents().values().stream()
                .filter(pi -> reference.equals(
                        pi.path("metadata").path("kopek_reference").asString(null)))
                .findFirst()
                .orElseThrow();
    }
}

package dev.kopek.psp.stripe;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The Stripe adapter's settings ({@code kopek.psp.provider=stripe}). Timeouts, the retry pause and the budget are
 * the PSP client's ({@code kopek.psp.*}).
 *
 * @param apiBase {@code KOPEK_STRIPE_API_BASE}: Stripe's API, or a stub in tests
 * @param secretKey {@code KOPEK_STRIPE_SECRET_KEY}: the account's secret key ({@code sk_live_…} / {@code sk_test_…})
 * @param webhookSecrets {@code KOPEK_STRIPE_WEBHOOK_SECRETS}: the endpoint's signing secrets, comma-separated; more
 *     than one while a secret is rolled
 * @param webhookTolerance how far an event's signed timestamp may be from now (Stripe's libraries use 5 minutes)
 * @param apiVersion {@code KOPEK_STRIPE_API_VERSION}: pinned {@code Stripe-Version}; empty uses the account's
 * @param returnUrl {@code KOPEK_STRIPE_RETURN_URL}: where Stripe sends the customer back after 3-D Secure, sent as
 *     {@code return_url} with every confirmation so a PaymentIntent that requires action answers
 *     {@code next_action.type=redirect_to_url} with a URL Kopek can hand on; empty sends none, and Stripe then
 *     answers {@code use_stripe_sdk}, which only Stripe.js with the PaymentIntent's client secret can complete
 * @param multicapture {@code kopek.psp.stripe.multicapture}: the account has Stripe's multicapture (an IC+ feature):
 *     manual-capture confirmations request it ({@code request_multicapture=if_available}) and a capture may leave the
 *     rest capturable ({@code final_capture=false}). Off (the default, and for merchants' own accounts), Stripe
 *     captures an authorization once, and Kopek refuses a non-final partial capture before anything is stored
 */
@ConfigurationProperties("kopek.psp.stripe")
public record StripeProperties(
        @DefaultValue("https://api.stripe.com") URI apiBase,
        @DefaultValue("") String secretKey,
        @DefaultValue("") List<String> webhookSecrets,
        @DefaultValue("5m") Duration webhookTolerance,
        @DefaultValue("") String apiVersion,
        @DefaultValue("") String returnUrl,
        @DefaultValue("false") boolean multicapture) {

    public StripeProperties {
        webhookSecrets = webhookSecrets.stream()
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .toList();
        returnUrl = returnUrl.strip();
        if (!returnUrl.isEmpty() && !returnUrl.matches("(?i)https?://[^\\s]{1,2000}")) {
            throw new IllegalArgumentException("kopek.psp.stripe.return-url must be an absolute http(s) URL");
        }
    }

    @Override
    public String toString() {
        return "StripeProperties[apiBase=" + apiBase + ", secretKey=" + (secretKey.isEmpty() ? "unset" : "set")
                + ", webhookSecrets=" + webhookSecrets.size() + ", webhookTolerance=" + webhookTolerance
                + ", apiVersion=" + apiVersion + ", returnUrl=" + returnUrl + ", multicapture=" + multicapture + "]";
    }
}

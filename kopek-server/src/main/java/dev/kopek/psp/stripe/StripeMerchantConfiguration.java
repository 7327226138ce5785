package dev.kopek.psp.stripe;

import dev.kopek.psp.CircuitBreakingPaymentProvider;
import dev.kopek.psp.MerchantAdapters;
import dev.kopek.psp.MerchantPsp;
import dev.kopek.psp.ObservedPaymentProvider;
import dev.kopek.psp.OutboundHeaders;
import dev.kopek.psp.PaymentProvider;
import dev.kopek.psp.PspCallLog;
import dev.kopek.psp.PspCircuits;
import dev.kopek.psp.PspNotification;
import dev.kopek.psp.PspProperties;
import dev.kopek.psp.PspReferences;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Stripe for merchants whose account names it, whatever {@code KOPEK_PSP_PROVIDER} says: each such merchant gets an
 * adapter with its own secret key and webhook secrets; the API base, tolerance, version and return URL are Kopek's
 * ({@code kopek.psp.stripe.*}), the timeouts and budget the PSP client's. Multicapture is off for them (Kopek does not
 * record which accounts have it), so their captures are whole or final.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({StripeProperties.class, PspProperties.class})
class StripeMerchantConfiguration {

    @Bean
    MerchantAdapters stripeMerchantAdapters(
            StripeProperties stripe,
            PspProperties limits,
            Clock clock,
            OutboundHeaders outboundHeaders,
            MeterRegistry meters,
            PspCallLog callLog,
            PspCircuits circuits,
            PspReferences references) {
        return new MerchantAdapters() {
            @Override
            public String provider() {
                return "stripe";
            }

            @Override
            public PaymentProvider build(MerchantPsp psp) {
                StripeProperties own = new StripeProperties(
                        stripe.apiBase(),
                        psp.credentials().secretKey(),
                        psp.credentials().webhookSecrets(),
                        stripe.webhookTolerance(),
                        stripe.apiVersion(),
                        stripe.returnUrl(),
                        // Whether a merchant's own account has multicapture is not recorded: its captures are whole.
                        false);
                StripePaymentProvider adapter =
                        new StripePaymentProvider(own, limits, clock, outboundHeaders, references);
                // The merchant's own account has its own circuit: Stripe's limits are per account.
                return new CircuitBreakingPaymentProvider(
                        new ObservedPaymentProvider(adapter, meters, callLog, clock),
                        circuits.of("stripe", psp.merchant()));
            }

            @Override
            public PspNotification readVerifiedNotification(String body) {
                return StripePaymentProvider.readStored(body);
            }
        };
    }
}

package dev.kopek.psp.stripe;

import dev.kopek.psp.CircuitBreakingPaymentProvider;
import dev.kopek.psp.ObservedPaymentProvider;
import dev.kopek.psp.OutboundHeaders;
import dev.kopek.psp.PaymentProvider;
import dev.kopek.psp.PspCallLog;
import dev.kopek.psp.PspCircuit;
import dev.kopek.psp.PspProperties;
import dev.kopek.psp.PspReferences;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Stripe as Kopek's PSP: {@code KOPEK_PSP_PROVIDER=stripe}, wrapped like every adapter (metrics, call log). */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "kopek.psp.provider", havingValue = "stripe")
@EnableConfigurationProperties({StripeProperties.class, PspProperties.class})
class StripeConfiguration {

    @Bean
    PaymentProvider paymentProvider(
            StripeProperties stripe,
            PspProperties limits,
            Clock clock,
            OutboundHeaders outboundHeaders,
            MeterRegistry meters,
            PspCallLog callLog,
            PspCircuit circuit,
            PspReferences references) {
        if (stripe.secretKey().isBlank()) {
            throw new IllegalStateException("kopek.psp.provider=stripe needs KOPEK_STRIPE_SECRET_KEY");
        }
        return new CircuitBreakingPaymentProvider(
                new ObservedPaymentProvider(
                        new StripePaymentProvider(stripe, limits, clock, outboundHeaders, references),
                        meters,
                        callLog,
                        clock),
                circuit);
    }
}

package dev.kopek.psp.simulator;

import dev.kopek.psp.CircuitBreakingPaymentProvider;
import dev.kopek.psp.InProcessPsp;
import dev.kopek.psp.ObservedPaymentProvider;
import dev.kopek.psp.OutboundHeaders;
import dev.kopek.psp.PaymentProvider;
import dev.kopek.psp.PspCallLog;
import dev.kopek.psp.PspCircuit;
import dev.kopek.psp.PspProperties;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.time.Clock;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The simulator is Kopek's default PSP ({@code KOPEK_PSP_PROVIDER=simulator}, or unset), reached over HTTP: a
 * separately started one when {@code KOPEK_PSP_SIMULATOR_URL} is set, otherwise the one the demo artifact starts
 * in-process ({@link InProcessPsp}). The production artifact carries no simulator, so there the URL is needed.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(PspProperties.class)
class SimulatorConfiguration {

    @Bean
    @ConditionalOnProperty(name = "kopek.psp.provider", havingValue = "simulator", matchIfMissing = true)
    PaymentProvider paymentProvider(
            PspProperties properties,
            ObjectProvider<InProcessPsp> inProcess,
            Clock clock,
            OutboundHeaders outboundHeaders,
            MeterRegistry meters,
            PspCallLog callLog,
            PspCircuit circuit) {
        URI base = simulatorBase(properties.simulatorUrl(), Optional.ofNullable(inProcess.getIfAvailable()));
        return new CircuitBreakingPaymentProvider(
                new ObservedPaymentProvider(
                        new SimulatorPaymentProvider(base, properties, clock, outboundHeaders), meters, callLog, clock),
                circuit);
    }

    /** The configured simulator's URL, else the in-process one; neither is a start-up error that says what to do. */
    static URI simulatorBase(String configuredUrl, Optional<InProcessPsp> inProcess) {
        if (configuredUrl != null && !configuredUrl.isBlank()) {
            return URI.create(configuredUrl);
        }
        return inProcess
                .map(InProcessPsp::baseUri)
                .orElseThrow(() -> new IllegalStateException("KOPEK_PSP_SIMULATOR_URL is not set and this build of"
                        + " Kopek holds no in-process simulator: point KOPEK_PSP_SIMULATOR_URL at a running acquirer"
                        + " simulator, set KOPEK_PSP_PROVIDER=stripe, or start the demo build"
                        + " (./kopek, kopek-demo/target/kopek-demo-0.1.0-SNAPSHOT.jar)."));
    }
}

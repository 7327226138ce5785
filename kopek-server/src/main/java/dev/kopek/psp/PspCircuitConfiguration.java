package dev.kopek.psp;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** One circuit for the configured adapter; each adapter's configuration wraps the adapter with it. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(PspCircuitProperties.class)
class PspCircuitConfiguration {

    @Bean
    PspCircuit pspCircuit(@Value("${kopek.psp.provider:simulator}") String provider, PspCircuitProperties properties,
            MeterRegistry meters, Clock clock) {
        return new PspCircuit(provider, properties, meters, clock);
    }

    /** Contributor {@code pspCircuit}, the only member of the health group {@code psp} (application.yml). */
    @Bean
    HealthIndicator pspCircuitHealthIndicator(PspCircuit circuit) {
        return new PspCircuitHealth(circuit);
    }
}

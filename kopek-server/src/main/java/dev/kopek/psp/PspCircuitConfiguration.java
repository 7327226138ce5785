package dev.kopek.psp;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** One circuit per PSP account; the configured adapter's configuration wraps it with its account's. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(PspCircuitProperties.class)
class PspCircuitConfiguration {

    @Bean
    PspCircuits pspCircuits(PspCircuitProperties properties, MeterRegistry meters, Clock clock) {
        return new PspCircuits(properties, meters, clock);
    }

    /** The circuit of Kopek's configured PSP (the default for merchants that name none). */
    @Bean
    PspCircuit pspCircuit(@Value("${kopek.psp.provider:simulator}") String provider, PspCircuits circuits) {
        return circuits.of(provider);
    }

    /** Contributor {@code pspCircuit}, the only member of the health group {@code psp} (application.yml). */
    @Bean
    HealthIndicator pspCircuitHealthIndicator(PspCircuits circuits) {
        return new PspCircuitHealth(circuits);
    }
}

package dev.kopek.psp.simulator;

import dev.kopek.platform.LogContext;
import dev.kopek.psp.CircuitBreakingPaymentProvider;
import dev.kopek.psp.ObservedPaymentProvider;
import dev.kopek.psp.OutboundHeaders;
import dev.kopek.psp.PaymentProvider;
import dev.kopek.psp.PspCallLog;
import dev.kopek.psp.PspCircuit;
import dev.kopek.psp.PspProperties;
import dev.kopek.simulator.AcquirerSimulator;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.net.URI;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The simulator is Kopek's default PSP ({@code KOPEK_PSP_PROVIDER=simulator}, or unset): a separately started one when {@code KOPEK_PSP_SIMULATOR_URL} is set,
 * otherwise one started in-process (on {@code KOPEK_SIMULATOR_PORT}, or a free port).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(PspProperties.class)
class SimulatorConfiguration {

    private static final Logger log = LoggerFactory.getLogger(SimulatorConfiguration.class);

    @Bean(destroyMethod = "close")
    @ConditionalOnExpression(
            "'${kopek.psp.simulator-url:}'.isBlank() and '${kopek.psp.provider:simulator}' == 'simulator'")
    AcquirerSimulator inProcessSimulator(PspProperties properties) {
        AcquirerSimulator simulator = AcquirerSimulator.start(properties.simulatorPort());
        log.info("acquirer simulator running in-process at {}", simulator.baseUri());
        return simulator;
    }

    @Bean
    @ConditionalOnProperty(name = "kopek.psp.provider", havingValue = "simulator", matchIfMissing = true)
    PaymentProvider paymentProvider(
            PspProperties properties,
            ObjectProvider<AcquirerSimulator> inProcess,
            Clock clock,
            OutboundHeaders outboundHeaders,
            MeterRegistry meters,
            PspCallLog callLog,
            PspCircuit circuit) {
        URI base =
                properties.simulatorUrl() != null && !properties.simulatorUrl().isBlank()
                        ? URI.create(properties.simulatorUrl())
                        : inProcess.getObject().baseUri();
        return new CircuitBreakingPaymentProvider(
                new ObservedPaymentProvider(
                        new SimulatorPaymentProvider(base, properties, clock, outboundHeaders), meters, callLog, clock),
                circuit);
    }

    /**
     * The current trace context as W3C {@code traceparent} (Micrometer Tracing's propagator) and the request id,
     * on every call to the PSP. Without a tracer (tracing switched off) only the request id goes.
     */
    @Bean
    OutboundHeaders pspOutboundHeaders(ObjectProvider<Tracer> tracers, ObjectProvider<Propagator> propagators) {
        Tracer tracer = tracers.getIfAvailable();
        Propagator propagator = propagators.getIfAvailable();
        return header -> {
            String requestId = LogContext.requestId();
            if (requestId != null) {
                header.accept("X-Request-Id", requestId);
            }
            TraceContext context =
                    tracer == null ? null : tracer.currentTraceContext().context();
            if (context != null && propagator != null) {
                propagator.inject(context, header, (carrier, name, value) -> carrier.accept(name, value));
            }
        };
    }
}

package dev.kopek.psp;

import dev.kopek.platform.LogContext;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The headers every adapter sends its PSP, whichever PSP is configured: they used to be defined beside the simulator's
 * adapter, so the Stripe adapter needed the simulator's configuration to start.
 */
@Configuration(proxyBeanMethods = false)
class OutboundHeadersConfiguration {

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

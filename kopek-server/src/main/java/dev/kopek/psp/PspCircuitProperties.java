package dev.kopek.psp;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The PSP circuit breaker ({@code kopek.psp.circuit.*}): over the last {@code windowCalls} PSP calls (once at least
 * {@code minimumCalls} were made), a share of unknown outcomes at or above {@code failureRatePercent} opens it for
 * {@code waitInOpen}; then {@code halfOpenCalls} calls decide whether it closes.
 */
@ConfigurationProperties("kopek.psp.circuit")
public record PspCircuitProperties(
        @DefaultValue("50") float failureRatePercent,
        @DefaultValue("50") int windowCalls,
        @DefaultValue("20") int minimumCalls,
        @DefaultValue("30s") Duration waitInOpen,
        @DefaultValue("5") int halfOpenCalls) {

    public PspCircuitProperties {
        if (failureRatePercent <= 0
                || failureRatePercent > 100
                || windowCalls < 1
                || minimumCalls < 1
                || halfOpenCalls < 1
                || waitInOpen.isNegative()
                || waitInOpen.isZero()) {
            throw new IllegalArgumentException("kopek.psp.circuit: rate in (0, 100], counts at least 1, wait > 0");
        }
    }
}

package dev.kopek.psp;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The PSP client's limits. The budget bounds a charge and its one retry together, and must stay well below
 * the idempotency lease so an owner never outlives its lease while the PSP still works.
 *
 * @param simulatorUrl {@code KOPEK_PSP_SIMULATOR_URL}; without it the simulator runs in-process
 * @param simulatorPort {@code KOPEK_SIMULATOR_PORT} for the in-process simulator; 0 picks a free port
 * @param keyWindow how long the provider keeps keys (the simulator's default is 24 h)
 * @param webhookSecret {@code KOPEK_PSP_WEBHOOK_SECRET}: the secret the PSP signs notifications with
 * @param webhookTolerance how far a notification's signed timestamp may be from now
 */
@ConfigurationProperties("kopek.psp")
public record PspProperties(
        String simulatorUrl,
        @DefaultValue("0") int simulatorPort,
        @DefaultValue("500ms") Duration connectTimeout,
        @DefaultValue("3s") Duration readTimeout,
        @DefaultValue("300ms") Duration retryPauseMin,
        @DefaultValue("400ms") Duration retryPauseMax,
        @DefaultValue("8s") Duration budget,
        @DefaultValue("24h") Duration keyWindow,
        @DefaultValue("whsec_simulator") String webhookSecret,
        @DefaultValue("5m") Duration webhookTolerance) {

    public PspProperties {
        if (retryPauseMax.compareTo(retryPauseMin) < 0 || budget.compareTo(readTimeout) < 0) {
            throw new IllegalArgumentException("kopek.psp: retry pauses out of order or budget below read timeout");
        }
    }
}

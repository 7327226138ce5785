package dev.kopek.merchants;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param adminToken {@code KOPEK_ADMIN_TOKEN}; without it the admin API is switched off.
 * @param demoApiKey {@code KOPEK_DEMO_API_KEY}; a known key for the demo merchant, for scripts.
 * @param demoEnabled whether a fresh database gets a demo merchant.
 * @param keyCacheTtl how long a verified key is trusted without asking the database; a revocation takes
 *     at most this long to reach the other instances.
 */
@ConfigurationProperties("kopek")
public record MerchantsProperties(
        String adminToken,
        String demoApiKey,
        @DefaultValue("true") boolean demoEnabled,
        @DefaultValue("5s") Duration keyCacheTtl) {

    public boolean adminEnabled() {
        return adminToken != null && !adminToken.isBlank();
    }
}

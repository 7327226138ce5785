package dev.kopek.platform;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code KOPEK_DB_URL}, {@code KOPEK_DB_USER}, {@code KOPEK_DB_PASSWORD}: an external PostgreSQL. Without a URL
 * Kopek starts an embedded PostgreSQL 17 whose data lives under {@code KOPEK_DATA_DIR}.
 */
@ConfigurationProperties("kopek.db")
public record DatabaseProperties(
        String url,
        @DefaultValue("kopek") String user,
        @DefaultValue("") String password,
        @DefaultValue("20") int poolSize,
        @DefaultValue("5s") Duration connectionTimeout) {

    public DatabaseProperties {
        if (poolSize < 1 || poolSize > 500) {
            throw new IllegalArgumentException("kopek.db.pool-size must be 1..500, was " + poolSize);
        }
    }

    public boolean external() {
        return url != null && !url.isBlank();
    }
}

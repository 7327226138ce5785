package dev.kopek.platform;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code KOPEK_DB_URL}, {@code KOPEK_DB_USER}, {@code KOPEK_DB_PASSWORD}: an external PostgreSQL. Without a URL
 * Kopek starts an embedded PostgreSQL 17 whose data lives under {@code KOPEK_DATA_DIR}. A request that finds no
 * free connection within {@code connectionTimeout} is answered 503; the transactions of a payment itself wait up to
 * {@code paymentConnectionWait} instead ({@link ConnectionWait}).
 */
@ConfigurationProperties("kopek.db")
public record DatabaseProperties(
        String url,
        @DefaultValue("kopek") String user,
        @DefaultValue("") String password,
        @DefaultValue("20") int poolSize,
        @DefaultValue("5s") Duration connectionTimeout,
        @DefaultValue("60s") Duration paymentConnectionWait,
        @DefaultValue("60s") Duration statementTimeout) {

    public DatabaseProperties {
        if (poolSize < 1 || poolSize > 500) {
            throw new IllegalArgumentException("kopek.db.pool-size must be 1..500, was " + poolSize);
        }
        if (statementTimeout.isNegative() || statementTimeout.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException(
                    "kopek.db.statement-timeout must be 0 (none) to 1h, was " + statementTimeout);
        }
        if (paymentConnectionWait.isNegative() || paymentConnectionWait.compareTo(Duration.ofMinutes(10)) > 0) {
            throw new IllegalArgumentException(
                    "kopek.db.payment-connection-wait must be 0..10m, was " + paymentConnectionWait);
        }
    }

    public boolean external() {
        return url != null && !url.isBlank();
    }
}

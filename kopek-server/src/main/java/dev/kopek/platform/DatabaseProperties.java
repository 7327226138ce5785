package dev.kopek.platform;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code KOPEK_DB_URL}, {@code KOPEK_DB_USER}, {@code KOPEK_DB_PASSWORD}: an external PostgreSQL. Without a URL
 * Kopek starts an embedded PostgreSQL 17 whose data lives under {@code KOPEK_DATA_DIR}. A request that finds no
 * free connection within {@code connectionTimeout} is answered 503; the transactions of a payment itself wait up to
 * {@code paymentConnectionWait} instead ({@link ConnectionWait}).
 *
 * <p>The rest bounds every wait on a server that vanished, so that after a failover the pool recovers by itself
 * (docs/beyond-one-machine.md): {@code loginTimeout} for opening a connection (every host of a multi-host URL
 * included), {@code socketTimeout} for any one answer of the server (a frozen primary ends a statement after it, a
 * lost connection the pool replaces), {@code keepaliveTime} for finding idle connections to a dead server, and
 * {@code maxLifetime} for retiring every connection now and then (a DNS name that moved to the new primary is
 * followed within it).
 */
@ConfigurationProperties("kopek.db")
public record DatabaseProperties(
        String url,
        @DefaultValue("kopek") String user,
        @DefaultValue("") String password,
        @DefaultValue("20") int poolSize,
        @DefaultValue("5s") Duration connectionTimeout,
        @DefaultValue("60s") Duration paymentConnectionWait,
        @DefaultValue("10s") Duration loginTimeout,
        @DefaultValue("30s") Duration socketTimeout,
        @DefaultValue("30s") Duration keepaliveTime,
        @DefaultValue("10m") Duration maxLifetime,
        @DefaultValue("25s") Duration statementTimeout) {

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
        // The driver counts these in whole seconds; 0 would mean "wait for ever", which is what they exist to stop.
        if (loginTimeout.toSeconds() < 1 || loginTimeout.compareTo(Duration.ofMinutes(5)) > 0) {
            throw new IllegalArgumentException("kopek.db.login-timeout must be 1s..5m, was " + loginTimeout);
        }
        if (socketTimeout.toSeconds() < 1 || socketTimeout.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException("kopek.db.socket-timeout must be 1s..1h, was " + socketTimeout);
        }
        // The pool's own floors: a keepalive below 30 s and a lifetime below 30 s are refused by HikariCP.
        if (keepaliveTime.compareTo(Duration.ofSeconds(30)) < 0 || keepaliveTime.compareTo(maxLifetime) >= 0) {
            throw new IllegalArgumentException(
                    "kopek.db.keepalive-time must be at least 30s and below kopek.db.max-lifetime, was "
                            + keepaliveTime);
        }
        if (maxLifetime.compareTo(Duration.ofMinutes(1)) < 0) {
            throw new IllegalArgumentException("kopek.db.max-lifetime must be at least 1m, was " + maxLifetime);
        }
    }

    public boolean external() {
        return url != null && !url.isBlank();
    }
}

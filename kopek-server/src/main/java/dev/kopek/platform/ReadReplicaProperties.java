package dev.kopek.platform;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code KOPEK_DB_READ_URL}: a read-only PostgreSQL for the reads that tolerate staleness (docs/read-replicas.md), a
 * streaming replica of the primary or a multi-host URL with {@code targetServerType=preferSecondary}. Same user and
 * password as the primary. Without it every read goes to the primary.
 *
 * @param url the replica's JDBC URL; empty: no replica
 * @param poolSize connections to it
 */
@ConfigurationProperties("kopek.db.read")
public record ReadReplicaProperties(
        String url, @DefaultValue("10") int poolSize) {

    public ReadReplicaProperties {
        if (poolSize < 1 || poolSize > 200) {
            throw new IllegalArgumentException("kopek.db.read.pool-size must be 1..200, was " + poolSize);
        }
    }

    public boolean configured() {
        return url != null && !url.isBlank();
    }
}

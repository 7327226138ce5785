package dev.kopek.platform;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The read replica's pool, when one is configured: read-only connections with the primary's credentials. Kopek
 * starts without it being reachable (a replica is an optimisation, not a dependency); its reads then fail as a
 * request would with the primary down, and the pool reconnects when it is back.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ReadReplicaProperties.class)
class ReadReplicaConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ReadReplicaConfiguration.class);

    @Bean(destroyMethod = "close")
    ReadReplica readReplica(ReadReplicaProperties replica, DatabaseProperties primary, DataSource dataSource) {
        if (!replica.configured()) {
            return new ReadReplica(dataSource, dataSource);
        }
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(replica.url());
        config.setUsername(primary.user());
        config.setPassword(primary.password());
        config.setPoolName("kopek-read");
        config.setMaximumPoolSize(replica.poolSize());
        config.setReadOnly(true);
        config.setConnectionTimeout(primary.connectionTimeout().toMillis());
        config.setInitializationFailTimeout(-1);
        DatabaseConfiguration.boundedWaits(config, primary);
        log.info("reads that tolerate staleness go to {}", DatabaseConfiguration.redact(replica.url()));
        return new ReadReplica(new HikariDataSource(config), dataSource);
    }
}

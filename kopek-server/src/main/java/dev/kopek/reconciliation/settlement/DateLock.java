package dev.kopek.reconciliation.settlement;

import java.time.LocalDate;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * One transaction-scoped advisory lock per provider and settlement date. Loads and passes of the same date take it,
 * so two instances never number the same version twice or count one sighting twice; other dates run in parallel.
 */
final class DateLock {

    private DateLock() {}

    static void hold(JdbcClient jdbc, String provider, LocalDate date) {
        jdbc.sql("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))")
                .param("key", "kopek.settlement:" + provider + ":" + date)
                .query((rs, n) -> Boolean.TRUE)
                .single();
    }
}

package dev.kopek.psp;

import dev.kopek.platform.Db;
import java.time.Clock;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * {@link PspReferences} in {@code psp_references} (V121). Written after the PSP answered, outside any transaction
 * (L3); a lost row costs only a search instead of a retrieve, never money.
 */
@Component
class JdbcPspReferences implements PspReferences {

    private final JdbcClient jdbc;
    private final Clock clock;

    JdbcPspReferences(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    @Override
    public Optional<String> find(String providerKey) {
        return jdbc.sql("SELECT psp_reference FROM psp_references WHERE provider_key = :key")
                .param("key", providerKey)
                .query(String.class)
                .optional();
    }

    @Override
    public void remember(String provider, String providerKey, String pspReference) {
        jdbc.sql("""
                INSERT INTO psp_references (provider_key, provider, psp_reference, learned_at)
                VALUES (:key, :provider, :reference, :now)
                ON CONFLICT (provider_key) DO NOTHING
                """)
                .param("key", providerKey)
                .param("provider", provider)
                .param("reference", pspReference)
                .param("now", Db.at(clock.instant()))
                .update();
    }
}

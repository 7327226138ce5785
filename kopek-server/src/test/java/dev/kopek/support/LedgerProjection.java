package dev.kopek.support;

import dev.kopek.ledger.LedgerProjector;
import org.springframework.jdbc.core.simple.JdbcClient;

/** Runs the ledger's balance projector until it has passed every transaction committed before the call. */
public final class LedgerProjection {

    private LedgerProjection() {}

    public static void projectAll(JdbcClient jdbc, LedgerProjector projector) {
        long committedBelow = jdbc.sql("SELECT pg_current_xact_id()::text::bigint")
                .query(Long.class)
                .single();
        for (int pass = 0; pass < 200; pass++) {
            projector.project();
            if (jdbc.sql("SELECT projected_below FROM ledger_projection")
                            .query(Long.class)
                            .single()
                    > committedBelow) {
                return;
            }
        }
        throw new AssertionError("the projection did not reach transaction " + committedBelow);
    }
}

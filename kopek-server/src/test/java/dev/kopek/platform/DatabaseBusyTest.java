package dev.kopek.platform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.KopekApplication;
import dev.kopek.merchants.Merchants;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.SharedSimulator;
import dev.kopek.support.TestDatabase;
import java.net.URI;
import java.sql.Connection;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;

/**
 * With every pooled connection taken (two: Flyway needs two to start), a request cannot authenticate, draw a rate-limit token or claim its key.
 * It is told 503 database_unavailable with Retry-After (found by the long crash run: 55 answers were 500s), and
 * retrying the same key once a connection is free moves the money exactly once.
 */
class DatabaseBusyTest {

    @Test
    @SuppressWarnings("try") // the two connections are held, never used, to empty the pool
    void noConnectionIsA503ToRetryAndTheRetryChargesOnce() throws Exception {
        var simulator = SharedSimulator.get();
        try (var kopek = new SpringApplicationBuilder(KopekApplication.class)
                .run(
                        "--server.port=0",
                        "--kopek.db.url=" + TestDatabase.newDatabase(),
                        "--kopek.db.user=postgres",
                        "--kopek.db.pool-size=2",
                        "--kopek.db.connection-timeout=250ms",
                        // A payment (a write) waits this long for a connection before it too is told 503.
                        "--kopek.db.payment-connection-wait=1s",
                        "--kopek.psp.simulator-url=" + simulator.baseUri(),
                        "--kopek.demo-enabled=false",
                        "--kopek.secrets-key=" + IntegrationTest.SECRETS_KEY,
                        "--kopek.reconciler.enabled=false",
                        "--kopek.outbox.workers-enabled=false",
                        "--kopek.settlement.enabled=false")) {
            Merchants merchants = kopek.getBean(Merchants.class);
            Api api = new Api(
                    URI.create("http://127.0.0.1:"
                            + ((WebServerApplicationContext) kopek)
                                    .getWebServer()
                                    .getPort()),
                    merchants.issueKey(merchants.create("Busy merchant").id()).secret());
            String reference = Api.unique("busy");
            String key = Api.newKey();

            DataSource pool = kopek.getBean(DataSource.class);
            try (Connection first = pool.getConnection();
                    Connection second = pool.getConnection()) {
                for (Api.Response busy : new Api.Response[] {
                    api.get("/v1/balance"), api.pay(key, Api.payment(reference, 100, "EUR", "pm_ok"))
                }) {
                    assertThat(busy.status()).isEqualTo(503);
                    assertThat(busy.header("Content-Type")).startsWith("application/problem+json");
                    assertThat(busy.text("code")).isEqualTo("database_unavailable");
                    assertThat(busy.header("Retry-After")).isEqualTo("1");
                }
            }

            Api.Response retried = api.pay(key, Api.payment(reference, 100, "EUR", "pm_ok"));
            assertThat(retried.status()).isEqualTo(201);
            assertThat(simulator.charges().stream()
                            .filter(c -> c.reference().equals(reference))
                            .count())
                    .isEqualTo(1);
        }
    }
}

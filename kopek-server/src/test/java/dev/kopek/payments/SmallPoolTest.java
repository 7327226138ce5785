package dev.kopek.payments;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.KopekApplication;
import dev.kopek.merchants.Merchants;
import dev.kopek.simulator.SimulatorConfig;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.SharedSimulator;
import dev.kopek.support.TestDatabase;
import java.net.URI;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;

/**
 * L3: no connection is held while the PSP thinks. With a 2 s PSP, 50 concurrent payments and a pool of five
 * connections that gives up after 1 s, any payment that held a connection across its PSP call would starve
 * the others into errors; all 50 complete. (1 s rather than 500 ms: each request also authenticates and draws a
 * rate-limit token before its claim, and 50 of them arrive at once on 2 cores; 1 s is still half the PSP's 2 s.)
 */
class SmallPoolTest {

    @Test
    void fiftySlowPaymentsCompleteOnFiveConnections() throws Exception {
        var simulator = SharedSimulator.get();
        try (var kopek = new SpringApplicationBuilder(KopekApplication.class)
                .run(
                        "--server.port=0",
                        "--kopek.db.url=" + TestDatabase.newDatabase(),
                        "--kopek.db.user=postgres",
                        "--kopek.db.pool-size=5",
                        "--kopek.db.connection-timeout=1s",
                        "--kopek.psp.simulator-url=" + simulator.baseUri(),
                        "--kopek.demo-enabled=false",
                        "--kopek.secrets-key=" + IntegrationTest.SECRETS_KEY,
                        "--kopek.reconciler.enabled=false")) {
            simulator.configure(SimulatorConfig.defaults().withLatency(2_000, 2_000));
            Merchants merchants = kopek.getBean(Merchants.class);
            Api api = new Api(
                    URI.create("http://127.0.0.1:"
                            + ((WebServerApplicationContext) kopek)
                                    .getWebServer()
                                    .getPort()),
                    merchants.issueKey(merchants.create("Pool merchant").id()).secret());
            String batch = UUID.randomUUID().toString().substring(0, 8);

            List<Api.Response> answers = dev.kopek.support.Race.of(
                    50, i -> api.pay(Api.newKey(), Api.payment(Api.unique(batch), 100, "EUR", "pm_ok")));

            assertThat(answers).allSatisfy(a -> {
                assertThat(a.status()).isEqualTo(201);
                assertThat(a.text("status")).isEqualTo("captured");
            });
            assertThat(simulator.charges().stream()
                            .filter(c -> c.reference().startsWith(batch))
                            .count())
                    .isEqualTo(50);
        } finally {
            simulator.reset();
        }
    }
}

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
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Incident 2 of the seed: a load balancer replays the same request 34 ms later to another instance. Two
 * complete Kopek instances share one PostgreSQL, which alone decides who charges.
 */
class TwoInstancesTest {

    private static final String DATABASE = TestDatabase.newDatabase();
    private static ConfigurableApplicationContext first;
    private static ConfigurableApplicationContext second;

    @BeforeAll
    static void startTwoInstances() {
        first = start();
        second = start();
    }

    @AfterAll
    static void stop() {
        SharedSimulator.get().reset();
        second.close();
        first.close();
    }

    private static ConfigurableApplicationContext start() {
        return new SpringApplicationBuilder(KopekApplication.class)
                .run(
                        "--server.port=0",
                        "--kopek.db.url=" + DATABASE,
                        "--kopek.db.user=postgres",
                        "--kopek.db.pool-size=5",
                        "--kopek.psp.simulator-url=" + SharedSimulator.get().baseUri(),
                        "--kopek.demo-enabled=false",
                        "--kopek.secrets-key=" + IntegrationTest.SECRETS_KEY,
                        "--kopek.reconciler.enabled=false");
    }

    private static URI uri(ConfigurableApplicationContext context) {
        return URI.create("http://127.0.0.1:"
                + ((WebServerApplicationContext) context).getWebServer().getPort());
    }

    @Test
    void sameKeySentToTwoInstances34msApartChargesOnce() throws Exception {
        SharedSimulator.get().configure(SimulatorConfig.defaults().withLatency(400, 400));
        Merchants merchants = first.getBean(Merchants.class);
        String secret = merchants.issueKey(merchants.create("LB merchant").id()).secret();
        Api viaFirst = new Api(uri(first), secret);
        Api viaSecond = new Api(uri(second), secret);
        String key = UUID.randomUUID().toString();
        String reference = Api.unique("order");
        String body = Api.payment(reference, 499_000, "RUB", "pm_ok");

        Api.Response a;
        Api.Response b;
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            var original = CompletableFuture.supplyAsync(() -> viaFirst.pay(key, body), pool);
            Thread.sleep(34);
            var replayed = CompletableFuture.supplyAsync(() -> viaSecond.pay(key, body), pool);
            a = original.get();
            b = replayed.get();
        }

        // Whichever request PostgreSQL let claim the key charged; the other was told to retry (or, had the first
        // finished already, got the replay). Which one came first is the scheduler's business, not the test's.
        var answers = java.util.List.of(a, b);
        assertThat(answers)
                .filteredOn(r -> r.status() == 201 && r.header("Idempotent-Replayed") == null)
                .hasSize(1);
        assertThat(answers).allSatisfy(r -> assertThat(r.status()).isIn(201, 409));
        Api.Response winner =
                answers.stream().filter(r -> r.status() == 201).findFirst().orElseThrow();
        long charges = SharedSimulator.get().charges().stream()
                .filter(c -> c.reference().equals(reference) && c.movedMoney())
                .count();
        assertThat(charges).isEqualTo(1);
        Api.Response later = viaSecond.pay(key, body);
        assertThat(later.body()).isEqualTo(winner.body());
        assertThat(later.header("Idempotent-Replayed")).isEqualTo("true");
    }
}

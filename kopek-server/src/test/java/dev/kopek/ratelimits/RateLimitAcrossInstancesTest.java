package dev.kopek.ratelimits;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.KopekApplication;
import dev.kopek.merchants.Merchants;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.Race;
import dev.kopek.support.SharedSimulator;
import dev.kopek.support.TestDatabase;
import java.net.URI;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two complete Kopek instances on one PostgreSQL share every bucket: requests spread over both are admitted
 * exactly up to the burst, per merchant and globally. Refill is set so slow that it adds nothing during the test.
 */
class RateLimitAcrossInstancesTest {

    private static final String DATABASE = TestDatabase.newDatabase();
    private static final int MERCHANT_READ_BURST = 3;
    private static final int GLOBAL_WRITE_BURST = 8;
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

    @Test
    void aMerchantsBucketHoldsAcrossInstances() throws Exception {
        String secret = newKey();
        Api viaFirst = new Api(uri(first), secret);
        Api viaSecond = new Api(uri(second), secret);

        List<Integer> answers = Race.of(
                12,
                i -> (i % 2 == 0 ? viaFirst : viaSecond)
                        .get("/v1/payments?reference=r-" + i)
                        .status());

        assertThat(answers.stream().filter(s -> s == 200).count()).isEqualTo(MERCHANT_READ_BURST);
        assertThat(answers.stream().filter(s -> s == 429).count()).isEqualTo(12 - MERCHANT_READ_BURST);
    }

    @Test
    void theGlobalBucketHoldsAcrossInstancesAndMerchants() throws Exception {
        List<Api> clients = List.of(
                new Api(uri(first), newKey()),
                new Api(uri(second), newKey()),
                new Api(uri(first), newKey()),
                new Api(uri(second), newKey()));
        String prefix = Api.unique("global") + "-";

        List<Integer> answers = Race.of(
                24,
                i -> clients.get(i % 4)
                        .pay(Api.newKey(), Api.payment(prefix + i, 500, "EUR", "pm_ok"))
                        .status());

        assertThat(answers.stream().filter(s -> s == 201).count()).isEqualTo(GLOBAL_WRITE_BURST);
        assertThat(answers.stream().filter(s -> s == 429).count()).isEqualTo(24 - GLOBAL_WRITE_BURST);
        assertThat(SharedSimulator.get().charges().stream()
                        .filter(c -> c.reference() != null && c.reference().startsWith(prefix))
                        .count())
                .as("charged at the PSP")
                .isEqualTo(GLOBAL_WRITE_BURST);
    }

    private static String newKey() {
        Merchants merchants = first.getBean(Merchants.class);
        return merchants
                .issueKey(merchants.create("Merchant " + UUID.randomUUID()).id())
                .secret();
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
                        "--kopek.reconciler.enabled=false",
                        "--kopek.outbox.workers-enabled=false",
                        "--kopek.rate-limits.reads-per-second=0.0001",
                        "--kopek.rate-limits.reads-burst=" + MERCHANT_READ_BURST,
                        "--kopek.rate-limits.global-writes-per-second=0.0001",
                        "--kopek.rate-limits.global-writes-burst=" + GLOBAL_WRITE_BURST,
                        "--kopek.rate-limits.global-shards=1");
    }

    private static URI uri(ConfigurableApplicationContext context) {
        return URI.create("http://127.0.0.1:"
                + ((WebServerApplicationContext) context).getWebServer().getPort());
    }
}

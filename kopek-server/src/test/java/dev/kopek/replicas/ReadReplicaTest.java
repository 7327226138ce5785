package dev.kopek.replicas;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.KopekApplication;
import dev.kopek.merchants.Merchants;
import dev.kopek.support.Api;
import dev.kopek.support.ConsoleSession;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.SharedSimulator;
import dev.kopek.support.StreamingReplica;
import java.io.IOException;
import java.net.URI;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Seed 000's incident on a real streaming replica: with the replica's replay paused (a lagging replica, as in the
 * incident), a client's retry with the same idempotency key gets the stored answer and the PSP is charged once —
 * the key store is on the primary, whatever the replica says — and the caller's own payment is there on a GET
 * right after its POST. The console's lists come from the replica: they still work, say how far behind they are,
 * and do not yet show the payment.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = {KopekApplication.class, IntegrationTest.TestBeans.class})
class ReadReplicaTest {

    private static final String DATABASE = "kopek_replicated";
    private static final StreamingReplica SERVERS = StreamingReplica.start(DATABASE);

    @DynamicPropertySource
    static void primaryAndReplica(DynamicPropertyRegistry registry) {
        IntegrationTest.commonProperties(registry, SERVERS.primaryUrl(DATABASE));
        registry.add("kopek.db.read.url", () -> SERVERS.standbyUrl(DATABASE));
    }

    @AfterAll
    static void stopServers() throws IOException {
        SERVERS.close();
    }

    @LocalServerPort
    private int port;

    @Autowired
    private Merchants merchants;

    @Test
    void aRetryWhileTheReplicaLagsGetsTheStoredAnswerAndChargesOnce() throws Exception {
        URI base = URI.create("http://127.0.0.1:" + port);
        var merchant = merchants.create("Replicated " + UUID.randomUUID());
        Api shop = new Api(base, merchants.issueKey(merchant.id()).secret());
        ConsoleSession console = ConsoleSession.logIn(base, IntegrationTest.ADMIN_TOKEN);
        SERVERS.pauseReplay();
        try {
            String reference = Api.unique("seed000");
            String key = Api.newKey();
            String body = Api.payment(reference, 4_990, "EUR", "pm_ok");

            Api.Response first = shop.pay(key, body);
            Api.Response retry = shop.pay(key, body);

            assertThat(first.status()).isEqualTo(201);
            assertThat(retry.status()).as("the retry's answer").isEqualTo(201);
            assertThat(retry.header("Idempotent-Replayed")).isEqualTo("true");
            assertThat(retry.body()).isEqualTo(first.body());
            assertThat(chargesAtPsp(reference)).as("charged at the PSP").isEqualTo(1);
            assertThat(SERVERS.caughtUp())
                    .as("the replica has not seen the payment")
                    .isFalse();
            String id = first.text("id");
            assertThat(shop.get("/v1/payments/" + id).status())
                    .as("the caller's own write, right after it")
                    .isEqualTo(200);

            String payments = console.page("/console/payments?q=" + reference);
            assertThat(payments).contains("lists read from a replica").doesNotContain(id);
            assertThat(console.page("/console/health")).contains("lists read from a replica");
            assertThat(console.page("/console/attention")).contains("behind");
        } finally {
            SERVERS.resumeReplay();
        }
    }

    private static long chargesAtPsp(String reference) {
        return SharedSimulator.get().charges().stream()
                .filter(c -> reference.equals(c.reference()) && c.status().equals("succeeded"))
                .count();
    }
}

package dev.kopek.replicas;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.KopekApplication;
import dev.kopek.merchants.Merchants;
import dev.kopek.support.Api;
import dev.kopek.support.ConsoleSession;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.TestDatabase;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A replica that is gone (a standby being rebuilt, a failover that took the node a read URL named) is a database
 * unavailable like the primary's: each read routed to it answers 503 {@code database_unavailable} with
 * {@code Retry-After}, never a 500, and what reads the primary goes on unhurt (docs/read-replicas.md).
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = {KopekApplication.class, IntegrationTest.TestBeans.class})
class LostReplicaTest {

    private static final String DATABASE = TestDatabase.newDatabase();

    @DynamicPropertySource
    static void primaryAndAGoneReplica(DynamicPropertyRegistry registry) throws IOException {
        IntegrationTest.commonProperties(registry, DATABASE);
        registry.add("kopek.db.read.url", () -> "jdbc:postgresql://127.0.0.1:" + closedPort() + "/kopek");
        registry.add("kopek.db.connection-timeout", () -> "1s");
    }

    /** A port nothing listens on: taken from the system, then let go. */
    private static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @LocalServerPort
    private int port;

    @Autowired
    private Merchants merchants;

    @Test
    void readsRoutedToAGoneReplicaAnswer503AndThePrimaryGoesOn() throws Exception {
        var merchant = merchants.create("Lost replica " + UUID.randomUUID());
        Api shop = new Api(
                URI.create("http://127.0.0.1:" + port),
                merchants.issueKey(merchant.id()).secret());

        Api.Response paid = shop.pay(Api.newKey(), Api.payment(Api.unique("lost"), 1_500, "EUR", "pm_ok"));
        assertThat(paid.status()).as("a payment, on the primary").isEqualTo(201);
        assertThat(shop.get("/v1/payments/" + paid.text("id")).status()).isEqualTo(200);

        for (String read : new String[] {"/v1/ledger/transactions", "/v1/balance", "/v1/events"}) {
            Api.Response answer = shop.get(read);
            assertThat(answer.status()).as(read).isEqualTo(503);
            assertThat(answer.text("code")).as(read).isEqualTo("database_unavailable");
            assertThat(answer.header("Retry-After")).as(read).isNotNull();
        }
        ConsoleSession console =
                ConsoleSession.logIn(URI.create("http://127.0.0.1:" + port), IntegrationTest.ADMIN_TOKEN);
        assertThat(console.get("/console/payments").statusCode())
                .as("a console list, read from the replica")
                .isEqualTo(503);
    }
}

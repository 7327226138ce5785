package dev.kopek.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kopek.KopekApplication;
import dev.kopek.psp.InProcessPsp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What {@code ./kopek} promises: the demo build starts with nothing configured (its embedded PostgreSQL in a data
 * folder, the acquirer simulator in-process) and takes a payment at once.
 */
class DemoStartsWithNothingConfiguredTest {

    private static final String DEMO_KEY = "sk_test_demo_0123456789abcdef";

    @Test
    void theDemoTakesAPaymentThroughItsInProcessSimulator(@TempDir Path data) throws Exception {
        try (ConfigurableApplicationContext kopek = new SpringApplicationBuilder(KopekApplication.class)
                .run(
                        "--server.port=0",
                        "--kopek.data-dir=" + data,
                        "--kopek.demo-api-key=" + DEMO_KEY,
                        "--kopek.outbox.workers-enabled=false")) {
            URI simulator = kopek.getBean(InProcessPsp.class).baseUri();
            assertThat(simulator.getHost()).isEqualTo("127.0.0.1");
            int port = ((WebServerApplicationContext) kopek).getWebServer().getPort();

            HttpResponse<String> paid = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/payments"))
                                    .header("Authorization", "Bearer " + DEMO_KEY)
                                    .header("Idempotency-Key", "demo-test-1")
                                    .header("Content-Type", "application/json")
                                    .POST(HttpRequest.BodyPublishers.ofString(
                                            "{\"reference\":\"demo-1\",\"amount\":1000,"
                                                    + "\"currency\":\"EUR\",\"payment_method\":\"pm_ok\"}"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());

            assertThat(paid.statusCode()).as(paid.body()).isEqualTo(201);
            assertThat(paid.body()).contains("\"status\":\"captured\"");
        }
    }

    @Test
    void productionModeRefusesTheInProcessSimulatorEvenInTheDemoBuild(@TempDir Path data) {
        assertThatThrownBy(() -> new SpringApplicationBuilder(KopekApplication.class)
                        .run("--server.port=0", "--kopek.data-dir=" + data, "--kopek.profile=production"))
                .hasStackTraceContaining(
                        "KOPEK_PSP_SIMULATOR_URL is not set: the in-process PSP simulator is for the demo only.");
    }
}

package dev.kopek.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kopek.KopekApplication;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.mock.env.MockEnvironment;

/** Production mode refuses every demo-only convenience, each with its own line; the demo needs nothing. */
class ProductionModeTest {

    private static MockEnvironment production() {
        return new MockEnvironment()
                .withProperty("kopek.profile", "production")
                .withProperty("kopek.db.url", "jdbc:postgresql://db.internal:5432/kopek")
                .withProperty("kopek.psp.simulator-url", "http://psp.internal:9090")
                .withProperty("kopek.demo-enabled", "false")
                .withProperty("kopek.psp.webhook-secret", "whsec_live_0123456789abcdef")
                .withProperty("kopek.secrets-key", "a29wZWstdGVzdC1zZWNyZXRzLWtleS0wMTIzNDU2Nzg=")
                .withProperty(ProductionMode.CONSOLE_SECURE_COOKIE, "true");
    }

    @Test
    void theDemoNeedsNoConfiguration() {
        assertThat(ProductionMode.problems(new MockEnvironment())).isEmpty();
    }

    @Test
    void aFullyConfiguredProductionStarts() {
        assertThat(ProductionMode.problems(production())).isEmpty();
    }

    @Test
    void eachDemoConvenienceIsRefusedWithItsOwnLine() {
        assertThat(ProductionMode.problems(production().withProperty("kopek.db.url", "")))
                .singleElement()
                .asString()
                .startsWith("KOPEK_DB_URL is not set");
        assertThat(ProductionMode.problems(production().withProperty("kopek.psp.simulator-url", "")))
                .singleElement()
                .asString()
                .startsWith("KOPEK_PSP_SIMULATOR_URL is not set");
        assertThat(ProductionMode.problems(production().withProperty("kopek.demo-enabled", "true")))
                .singleElement()
                .asString()
                .startsWith("KOPEK_DEMO_ENABLED is not false");
        assertThat(ProductionMode.problems(production().withProperty("kopek.demo-api-key", "sk_test_known_0123456")))
                .singleElement()
                .asString()
                .startsWith("KOPEK_DEMO_API_KEY is set");
        for (String secret : new String[] {"", "whsec_simulator", "short"}) {
            assertThat(ProductionMode.problems(production().withProperty("kopek.psp.webhook-secret", secret)))
                    .as(secret)
                    .singleElement()
                    .asString()
                    .startsWith("KOPEK_PSP_WEBHOOK_SECRET is empty");
        }
        assertThat(ProductionMode.problems(production().withProperty("kopek.secrets-key", "")))
                .singleElement()
                .asString()
                .startsWith("KOPEK_SECRETS_KEY is not set");
        for (String secure : new String[] {"false", "", "maybe"}) {
            assertThat(ProductionMode.problems(production().withProperty(ProductionMode.CONSOLE_SECURE_COOKIE, secure)))
                    .as(secure)
                    .singleElement()
                    .asString()
                    .startsWith("KOPEK_CONSOLE_SECURE_COOKIE is not true");
        }
        assertThat(ProductionMode.problems(new MockEnvironment().withProperty("kopek.profile", "demo")))
                .as("the demo, named explicitly, keeps its plain-HTTP console")
                .isEmpty();
        assertThat(ProductionMode.problems(production().withProperty("kopek.profile", "prod")))
                .singleElement()
                .asString()
                .contains("'production' or unset");
    }

    @Test
    void productionWithDemoDefaultsRefusesToStartBeforeTheEmbeddedDatabase() {
        assertThatThrownBy(() -> new SpringApplicationBuilder(KopekApplication.class)
                        .run(
                                "--server.port=0",
                                "--kopek.profile=production",
                                "--kopek.secrets-key=",
                                "--kopek.data-dir=target/production-mode-test"))
                .satisfies(e -> {
                    FailureAnalysis analysis = new ProductionModeFailureAnalyzer().analyze(e);
                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription().lines().skip(1).toList())
                            .hasSize(6)
                            .allSatisfy(line -> assertThat(line).startsWith("  KOPEK_"))
                            .anySatisfy(line -> assertThat(line).startsWith("  KOPEK_CONSOLE_SECURE_COOKIE"));
                });
        assertThat(new java.io.File("target/production-mode-test"))
                .as("nothing started, nothing written")
                .doesNotExist();
    }
}

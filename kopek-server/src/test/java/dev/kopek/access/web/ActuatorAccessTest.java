package dev.kopek.access.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.IntegrationTest;
import org.junit.jupiter.api.Test;

/** Health is for load balancers and anyone; metrics and every other actuator endpoint are for admins only. */
class ActuatorAccessTest extends IntegrationTest {

    @Test
    void healthAndItsProbesArePublic() {
        for (String path :
                new String[] {"/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness"}) {
            assertThat(new RawRequest("GET", path, null, null).send(port).status())
                    .as(path)
                    .isEqualTo(200);
        }
    }

    @Test
    void metricsAndPrometheusAndTheIndexAreAdminOnly() {
        String merchantKey = newMerchant()
                .request("/")
                .build()
                .headers()
                .firstValue("Authorization")
                .orElseThrow()
                .substring(7);
        for (String path : new String[] {
            "/actuator/prometheus",
            "/actuator/metrics",
            "/actuator/info",
            "/actuator",
            "/actuator/metrics/jvm.memory.used",
            "/actuator/%70rometheus",
            "/actuator/prometheus;x"
        }) {
            for (String bearer : new String[] {null, merchantKey}) {
                RawRequest.Answer answer = new RawRequest("GET", path, bearer, null).send(port);
                assertThat(answer.status()).as(path).isIn(400, 401);
                assertThat(answer.header("content-type")).as(path).startsWith("application/problem+json");
                assertThat(answer.body()).as(path).doesNotContain("jvm_");
            }
        }
        RawRequest.Answer scrape = new RawRequest("GET", "/actuator/prometheus", ADMIN_TOKEN, null).send(port);
        assertThat(scrape.status()).isEqualTo(200);
        assertThat(scrape.body()).contains("kopek_");
        assertThat(new RawRequest("GET", "/actuator/metrics", ADMIN_TOKEN, null)
                        .send(port)
                        .status())
                .isEqualTo(200);
    }
}

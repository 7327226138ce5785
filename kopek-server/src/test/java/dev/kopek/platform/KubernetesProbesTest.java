package dev.kopek.platform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;

/**
 * The probes docs/containers.md documents for Kubernetes: liveness is the process alone, readiness includes the
 * database.
 */
class KubernetesProbesTest extends IntegrationTest {

    @Autowired
    HealthEndpointGroups groups;

    @Test
    void readinessIncludesTheDatabaseAndLivenessDoesNot() {
        assertThat(groups.get("readiness").isMember("db")).isTrue();
        assertThat(groups.get("readiness").isMember("readinessState")).isTrue();
        assertThat(groups.get("liveness").isMember("db")).isFalse();
        assertThat(groups.get("liveness").isMember("livenessState")).isTrue();
    }

    @Test
    void probesArePublicAndUp() {
        Api anonymous = new Api(baseUri(), null);
        for (String probe : new String[] {"/actuator/health/liveness", "/actuator/health/readiness"}) {
            Api.Response response = anonymous.get(probe);
            assertThat(response.status()).as(probe).isEqualTo(200);
            assertThat(response.text("status")).as(probe).isEqualTo("UP");
        }
    }
}

package dev.kopek.outbox.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kopek.platform.ApiProblem;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** Webhook URL rules at registration: https only, plain http to loopback only in demo mode, no internal literals. */
class EndpointRequestTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void httpsToAPublicNameOrAddressIsAccepted() {
        for (String url : List.of(
                "https://hooks.example.com/kopek",
                "https://93.184.216.34/h",
                "https://[2606:2800:220:1:248:1893:25c8:1946]:8443/h")) {
            assertThat(EndpointRequest.parse(body(url), false).url()).isEqualTo(url);
        }
    }

    @Test
    void plainHttpIsRefusedOutsideDemoModeAndToAnythingButLoopbackInIt() {
        for (String url : List.of(
                "http://hooks.example.com/h", "http://127.0.0.1:9000/h", "http://localhost/h", "http://[::1]/h")) {
            assertThat(code(url, false)).as(url).isEqualTo("insecure_url");
        }
        for (String url : List.of("http://hooks.example.com/h", "http://10.0.0.1/h", "http://169.254.169.254/")) {
            assertThat(code(url, true)).as(url).isEqualTo("insecure_url");
        }
        for (String url : List.of("http://127.0.0.1:9000/h", "http://localhost:8080/h", "http://[::1]:80/h")) {
            assertThat(EndpointRequest.parse(body(url), true).url()).as(url).isEqualTo(url);
        }
    }

    @Test
    void anInternalAddressLiteralIsRefusedAtOnce() {
        for (String url : List.of(
                "https://169.254.169.254/latest/meta-data",
                "https://10.1.2.3/h",
                "https://192.168.0.10/h",
                "https://100.64.0.1/h",
                "https://[fd00:ec2::254]/h",
                "https://[::1]/h",
                "https://127.0.0.1/h",
                "https://localhost/h",
                "https://0.0.0.0/h",
                "https://[::ffff:169.254.169.254]/h",
                "https://224.0.0.1/h")) {
            assertThat(code(url, false)).as(url).isEqualTo("url_not_allowed");
        }
        assertThat(code("https://10.1.2.3/h", true))
                .as("demo mode opens loopback only")
                .isEqualTo("url_not_allowed");
        assertThat(code("https://999.1.1.1/h", false)).isEqualTo("invalid_url");
        assertThat(code("https://2130706433/h", false))
                .as("127.0.0.1 as one number")
                .isIn("url_not_allowed", "invalid_url");
        assertThat(code("ftp://hooks.example.com/h", false)).isEqualTo("invalid_url");
    }

    private static String code(String url, boolean demo) {
        try {
            EndpointRequest.parse(body(url), demo);
        } catch (ApiProblem problem) {
            return problem.code();
        }
        throw new AssertionError("accepted: " + url);
    }

    private static ObjectNode body(String url) {
        ObjectNode body = JSON.createObjectNode();
        body.put("url", url);
        body.putArray("event_types").add("*");
        return body;
    }

    @Test
    void theRefusalSaysWhy() {
        assertThatThrownBy(() -> EndpointRequest.parse(body("https://169.254.169.254/"), false))
                .hasMessageContaining("link-local or cloud metadata");
    }
}

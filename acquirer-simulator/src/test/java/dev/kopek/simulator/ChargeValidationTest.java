package dev.kopek.simulator;

import static dev.kopek.simulator.SimClient.chargeJson;
import static dev.kopek.simulator.SimClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ChargeValidationTest extends RunningSimulator {
    @Test
    void aChargeWithoutKeyIsRejected() throws Exception {
        HttpResponse<String> response = client.charge(null, chargeJson("pm_ok"));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response).get("error").stringValue()).isEqualTo("missing_idempotency_key");
        assertThat(simulator.charges()).isEmpty();
    }

    @Test
    void keysMustBePrintableAsciiUpTo255Characters() throws Exception {
        assertThat(client.charge("k".repeat(256), chargeJson("pm_ok")).statusCode())
                .isEqualTo(400);
        assertThat(client.charge("k".repeat(255), chargeJson("pm_ok")).statusCode())
                .isEqualTo(201);
        assertThat(client.charge("a key with spaces~!", chargeJson("pm_ok")).statusCode())
                .isEqualTo(201);
    }

    @Test
    void nonAsciiKeysAreRejected() throws Exception {
        // HttpClient refuses to send such a header, so speak raw HTTP/1.1.
        String body = chargeJson("pm_ok");
        byte[] head = ("POST /charges HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                        + "Content-Type: application/json\r\nContent-Length: " + body.length()
                        + "\r\nIdempotency-Key: ")
                .getBytes(StandardCharsets.US_ASCII);
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), simulator.port())) {
            OutputStream out = socket.getOutputStream();
            out.write(head);
            out.write("ключ\r\n\r\n".getBytes(StandardCharsets.UTF_8));
            out.write(body.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(response).startsWith("HTTP/1.1 400").contains("missing_idempotency_key");
        }
        assertThat(simulator.charges()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "not json",
                "[1]",
                "{\"amount\": 1}",
                "{\"amount\": 0, \"currency\": \"EUR\", \"payment_method\": \"pm_ok\"}",
                "{\"amount\": -5, \"currency\": \"EUR\", \"payment_method\": \"pm_ok\"}",
                "{\"amount\": 10.5, \"currency\": \"EUR\", \"payment_method\": \"pm_ok\"}",
                "{\"amount\": 10.0, \"currency\": \"EUR\", \"payment_method\": \"pm_ok\"}",
                "{\"amount\": \"10\", \"currency\": \"EUR\", \"payment_method\": \"pm_ok\"}",
                "{\"amount\": 99999999999999999999, \"currency\": \"EUR\", \"payment_method\": \"pm_ok\"}",
                "{\"amount\": 10, \"currency\": \"eur\", \"payment_method\": \"pm_ok\"}",
                "{\"amount\": 10, \"currency\": \"EURO\", \"payment_method\": \"pm_ok\"}",
                "{\"amount\": 10, \"payment_method\": \"pm_ok\"}",
                "{\"amount\": 10, \"currency\": \"EUR\"}",
                "{\"amount\": 10, \"currency\": \"EUR\", \"payment_method\": \"  \"}",
                "{\"amount\": 10, \"currency\": \"EUR\", \"payment_method\": 7}",
                "{\"amount\": 10, \"currency\": \"EUR\", \"payment_method\": \"pm_ok\", \"reference\": 5}",
                "{\"amount\": 10, \"currency\": \"EUR\", \"payment_method\": \"pm_ok\"} trailing"
            })
    void invalidBodiesAreRejectedAndStoreNothing(String body) throws Exception {
        HttpResponse<String> response = client.charge("invalid", body);

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response).get("error").stringValue()).isEqualTo("invalid_request");
        assertThat(json(response).get("message").stringValue()).isNotBlank();
        assertThat(client.lookup("invalid").statusCode()).isEqualTo(404);
        assertThat(simulator.charges()).isEmpty();
    }

    @Test
    void lookupNeedsAKey() throws Exception {
        HttpResponse<String> response = client.get("/charges");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response).get("error").stringValue()).isEqualTo("missing_idempotency_key");
    }

    @Test
    void referenceIsOptionalAndNullWhenAbsent() throws Exception {
        HttpResponse<String> response = client.charge("no-ref", chargeJson(10, "EUR", "pm_ok", null));

        assertThat(response.statusCode()).isEqualTo(201);
        assertThat(json(response).get("reference").isNull()).isTrue();
        assertThat(simulator.charges().getFirst().reference()).isNull();
    }
}

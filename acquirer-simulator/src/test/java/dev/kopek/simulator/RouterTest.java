package dev.kopek.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class RouterTest {

    @Test
    void aHandlerBugBecomesA500JsonWithoutStackTrace() throws Exception {
        Router router = new Router().route("GET", "/boom", request -> {
            throw new IllegalStateException("a bug with internals");
        });
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", router);
        server.start();
        try (HttpClient http = HttpClient.newHttpClient()) {
            URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/boom");
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).isEqualTo(500);
            assertThat(response.body()).isEqualTo("{\"error\":\"internal_error\"}");
        } finally {
            server.stop(0);
        }
    }
}

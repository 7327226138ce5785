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
            HttpResponse<String> response =
                    http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).isEqualTo(500);
            assertThat(response.body()).isEqualTo("{\"error\":\"internal_error\"}");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void templatesMatchOneSegmentPerParameter() throws Exception {
        Router router = new Router()
                .route("GET", "/charges", request -> Json.ok(Json.object().put("exact", true)))
                .route(
                        "GET",
                        "/charges/{id}/captures",
                        request -> Json.ok(Json.object().put("id", request.pathParam("id"))));
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", router);
        server.start();
        try (HttpClient http = HttpClient.newHttpClient()) {
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            java.util.function.Function<String, HttpResponse<String>> get = path -> {
                try {
                    return http.send(
                            HttpRequest.newBuilder(URI.create(base + path)).build(),
                            HttpResponse.BodyHandlers.ofString());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            };

            assertThat(get.apply("/charges/ch_1/captures").body()).isEqualTo("{\"id\":\"ch_1\"}");
            assertThat(get.apply("/charges").body()).isEqualTo("{\"exact\":true}");
            assertThat(get.apply("/charges//captures").statusCode()).isEqualTo(404);
            assertThat(get.apply("/charges/ch_1/captures/").statusCode()).isEqualTo(404);
            assertThat(get.apply("/charges/ch_1").statusCode()).isEqualTo(404);
            HttpResponse<String> post = http.send(
                    HttpRequest.newBuilder(URI.create(base + "/charges/x/captures"))
                            .POST(HttpRequest.BodyPublishers.noBody())
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(post.statusCode()).isEqualTo(405);
            assertThat(post.headers().firstValue("Allow")).hasValue("GET");
        } finally {
            server.stop(0);
        }
    }
}

package dev.kopek.psp;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A PSP's answer reaches the adapter as the text it sent: in the charset its Content-Type names, UTF-8 without one,
 * with or without a Content-Length, empty when there is no body. PspHttp reads the body itself (one array of the
 * declared length) instead of through the client's reader; these are the cases that reader decided before.
 */
class PspHttpTest {

    private static final String TEXT = "{\"detail\":\"déclinée – ø\"}";

    private HttpServer psp;
    private URI base;
    private final PspHttp http = new PspHttp(Duration.ofSeconds(1));

    @BeforeEach
    void start() throws Exception {
        psp = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        answer("/utf8-declared", "application/json; charset=utf-8", StandardCharsets.UTF_8, true);
        answer("/utf8-undeclared", "application/json", StandardCharsets.UTF_8, true);
        answer("/latin1-declared", "text/plain; charset=ISO-8859-1", StandardCharsets.ISO_8859_1, true);
        answer("/unknown-charset", "application/json; charset=no-such-charset", StandardCharsets.UTF_8, true);
        answer("/chunked", "application/json", StandardCharsets.UTF_8, false);
        psp.createContext("/empty", exchange -> {
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        psp.start();
        base = URI.create("http://127.0.0.1:" + psp.getAddress().getPort());
    }

    @AfterEach
    void stop() {
        psp.stop(0);
    }

    @Test
    void aBodyIsReadInItsDeclaredCharsetAndUtf8Otherwise() throws Exception {
        assertThat(get("/utf8-declared")).isEqualTo(new PspHttp.Answer(200, TEXT));
        assertThat(get("/utf8-undeclared")).isEqualTo(new PspHttp.Answer(200, TEXT));
        assertThat(get("/latin1-declared").body()).isEqualTo("{\"detail\":\"déclinée ? ø\"}");
        assertThat(get("/unknown-charset")).isEqualTo(new PspHttp.Answer(200, TEXT));
    }

    @Test
    void aBodyWithoutALengthIsReadToItsEnd() throws Exception {
        assertThat(get("/chunked")).isEqualTo(new PspHttp.Answer(200, TEXT));
    }

    @Test
    void noBodyIsEmptyText() throws Exception {
        assertThat(get("/empty")).isEqualTo(new PspHttp.Answer(204, ""));
    }

    @Test
    void aPooledConnectionServesTheNextCallAfterABodyReadByLength() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertThat(get("/utf8-declared")).isEqualTo(new PspHttp.Answer(200, TEXT));
            assertThat(get("/chunked")).isEqualTo(new PspHttp.Answer(200, TEXT));
        }
    }

    private PspHttp.Answer get(String path) throws Exception {
        return http.get(base.resolve(path), Duration.ofSeconds(2), set -> {});
    }

    private void answer(String path, String contentType, Charset charset, boolean withLength) {
        psp.createContext(path, exchange -> {
            byte[] body = TEXT.getBytes(charset);
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.sendResponseHeaders(200, withLength ? body.length : 0);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
    }
}

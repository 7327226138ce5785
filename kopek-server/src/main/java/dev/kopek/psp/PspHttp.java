package dev.kopek.psp;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.ManagedHttpClientConnectionFactory;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * The blocking HTTP/1.1 client an adapter talks to its PSP with: keep-alive connections in a pool, one call on the
 * caller's (virtual) thread, no retries, no redirects, no cookies — the adapter decides every retry itself (L5,
 * L6). Each call has its own read timeout; a call that waits longer for its answer fails with an
 * {@link IOException}, which the adapter classifies as a transport failure.
 *
 * <p>It replaced the JDK's {@code java.net.http.HttpClient} on the payment path: that client hands every exchange
 * to its selector thread and back through a chain of futures, which cost about a sixth of Kopek's CPU per payment
 * (benchmarks/HISTORY.md, issue 11). A blocking call on a virtual thread does the same work with none of that.
 */
public final class PspHttp {

    /** The PSP's answer: its status and its body as text. */
    public record Answer(int status, String body) {}

    /** Many payments wait on a slow PSP at once (latency mode: 5,000); each holds one connection. */
    private static final int MAX_CONNECTIONS = 20_000;
    /**
     * A pooled connection idle this long is checked before it is reused, so one the PSP closed is not written to (a
     * write into a closed connection is a transport failure, and the one retry could meet another): the check is a
     * one-millisecond read, so a busy connection, reused at once, never pays it.
     */
    private static final TimeValue VALIDATE_AFTER_INACTIVITY = TimeValue.ofMilliseconds(100);

    /** Per connection: a PSP's answers are a few hundred bytes; 8 KB each would be 40 MB for 5,000 waiting. */
    private static final int BUFFER_BYTES = 4096;

    private final CloseableHttpClient client;

    public PspHttp(Duration connectTimeout) {
        var connections = PoolingHttpClientConnectionManagerBuilder.create()
                .setPoolConcurrencyPolicy(PoolConcurrencyPolicy.LAX)
                .setMaxConnTotal(MAX_CONNECTIONS)
                .setMaxConnPerRoute(MAX_CONNECTIONS)
                .setConnectionFactory(ManagedHttpClientConnectionFactory.builder()
                        .http1Config(
                                Http1Config.custom().setBufferSize(BUFFER_BYTES).build())
                        .build())
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(connectTimeout))
                        .setValidateAfterInactivity(VALIDATE_AFTER_INACTIVITY)
                        .build())
                .build();
        this.client = HttpClients.custom()
                .setConnectionManager(connections)
                .disableAutomaticRetries()
                .disableRedirectHandling()
                .disableCookieManagement()
                .disableAuthCaching()
                .disableContentCompression()
                .build();
    }

    public Answer get(URI uri, Duration timeout, Headers headers) throws IOException {
        return exchange(new HttpGet(uri), timeout, headers);
    }

    public Answer post(URI uri, ContentType type, String body, Duration timeout, Headers headers) throws IOException {
        HttpPost post = new HttpPost(uri);
        post.setEntity(new StringEntity(body, type));
        return exchange(post, timeout, headers);
    }

    /** Adds a call's headers; {@code set} replaces a header of the same name. */
    @FunctionalInterface
    public interface Headers {
        void addTo(java.util.function.BiConsumer<String, String> set);
    }

    private Answer exchange(HttpUriRequestBase request, Duration timeout, Headers headers) throws IOException {
        request.setConfig(RequestConfig.custom()
                .setResponseTimeout(Timeout.of(timeout))
                .setConnectionRequestTimeout(Timeout.of(timeout))
                .setRedirectsEnabled(false)
                .build());
        headers.addTo(request::setHeader);
        return client.execute(request, response -> new Answer(response.getCode(), text(response.getEntity())));
    }

    /**
     * The body as text in its declared charset, UTF-8 without one. Read into one array of the declared length:
     * {@code EntityUtils.toString} decoded through a reader with an 8 KB byte buffer and a growing char buffer, a
     * tenth of what Kopek allocated per payment for a body of a few hundred bytes (benchmarks/kopek-profile.md).
     */
    private static String text(HttpEntity entity) throws IOException {
        if (entity == null) {
            return "";
        }
        ContentType type = ContentType.parseLenient(entity.getContentType());
        Charset charset = type == null || type.getCharset() == null ? StandardCharsets.UTF_8 : type.getCharset();
        long length = entity.getContentLength();
        try (InputStream in = entity.getContent()) {
            if (in == null) {
                return "";
            }
            byte[] body =
                    length >= 0 && length <= Integer.MAX_VALUE - 8 ? in.readNBytes((int) length) : in.readAllBytes();
            return new String(body, charset);
        }
    }
}

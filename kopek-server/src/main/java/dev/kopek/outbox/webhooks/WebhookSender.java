package dev.kopek.outbox.webhooks;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Timeout;

/**
 * Posts one signed body to a merchant's endpoint. Never called inside a transaction; bounded by a connect and a
 * response timeout; never follows a redirect (an endpoint that moved must be updated, not chased, and a redirect
 * could point inside the network). Only 2xx counts as delivered.
 *
 * <p>The name is resolved once per new connection, by this class: every address it resolves to is checked against
 * {@link AddressPolicy}, and only checked addresses are handed to the connection, which connects to exactly those
 * while TLS still uses the name (SNI and certificate check) and {@code Host} carries the name. A name that resolves
 * to an internal address, or that changes its answer after a first check (DNS rebinding), therefore never reaches
 * an internal address. Plain {@code http} goes through a second client whose policy admits loopback only, and only
 * where the operator allowed it (demo, tests). No proxy is used.
 */
class WebhookSender implements AutoCloseable {

    private static final int MAX_ERROR = 500;
    private static final int MAX_CONNECTIONS = 200;

    /** Looks a host name up; the seam tests use instead of real DNS. */
    @FunctionalInterface
    interface HostResolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    /** A name whose addresses the policy refuses: nothing was sent. */
    static final class RefusedAddress extends UnknownHostException {
        RefusedAddress(String message) {
            super(message);
        }
    }

    private final CloseableHttpClient https;
    private final CloseableHttpClient loopbackHttp;

    WebhookSender(Duration connectTimeout, Duration requestTimeout, boolean allowHttpLoopback, HostResolver resolver) {
        this.https = client(connectTimeout, requestTimeout, new AddressPolicy(allowHttpLoopback), resolver, false);
        this.loopbackHttp = allowHttpLoopback
                ? client(connectTimeout, requestTimeout, new AddressPolicy(true), resolver, true)
                : null;
    }

    /**
     * @param responseCode null when no HTTP answer arrived
     * @param error why it failed, for the attempt record; never contains the secret or the body
     */
    record Result(Integer responseCode, long latencyMillis, String error) {
        boolean succeeded() {
            return responseCode != null && responseCode >= 200 && responseCode < 300;
        }
    }

    Result post(String url, String body, Map<String, String> headers) {
        long started = System.nanoTime();
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            return new Result(null, 0, "invalid URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        CloseableHttpClient client = switch (scheme) {
            case "https" -> https;
            case "http" -> loopbackHttp;
            default -> null;
        };
        if (client == null) {
            return new Result(null, 0, "refused: " + scheme + " URLs are not allowed here (https only)");
        }
        HttpPost request = new HttpPost(uri);
        request.setHeader("User-Agent", "Kopek-Webhooks/1");
        headers.forEach(request::setHeader);
        request.setEntity(new StringEntity(body, ContentType.APPLICATION_JSON));
        try {
            int code = client.execute(request, response -> response.getCode());
            return new Result(code, elapsed(started), code >= 200 && code < 300 ? null : "HTTP " + code);
        } catch (RefusedAddress e) {
            return new Result(null, elapsed(started), limit("refused: " + e.getMessage()));
        } catch (InterruptedIOException e) {
            return new Result(null, elapsed(started), "timed out");
        } catch (IOException | RuntimeException e) {
            return new Result(null, elapsed(started), limit(e.getClass().getSimpleName() + ": " + e.getMessage()));
        }
    }

    @Override
    public void close() {
        https.close(CloseMode.IMMEDIATE);
        if (loopbackHttp != null) {
            loopbackHttp.close(CloseMode.IMMEDIATE);
        }
    }

    /** {@code loopbackOnly}: the plain-http client, which may reach nothing but this machine. */
    private static CloseableHttpClient client(
            Duration connectTimeout,
            Duration requestTimeout,
            AddressPolicy policy,
            HostResolver resolver,
            boolean loopbackOnly) {
        DnsResolver checked = new DnsResolver() {
            @Override
            public InetAddress[] resolve(String host) throws UnknownHostException {
                InetAddress[] addresses = resolver.resolve(stripBrackets(host));
                if (addresses == null || addresses.length == 0) {
                    throw new UnknownHostException(host);
                }
                for (InetAddress address : addresses) {
                    Optional<String> refusal = policy.refusal(address)
                            .or(() -> loopbackOnly && !policy.isLoopback(address)
                                    ? Optional.of("a public address " + address.getHostAddress()
                                            + ", but plain http goes to loopback only")
                                    : Optional.empty());
                    if (refusal.isPresent()) {
                        // One bad answer refuses the name: a name that mixes public and internal addresses is
                        // either misconfigured or an attack, and trying the public one first would not stay so.
                        throw new RefusedAddress(host + " resolves to " + refusal.get());
                    }
                }
                return Arrays.copyOf(addresses, addresses.length);
            }

            @Override
            public String resolveCanonicalHostname(String host) {
                return host;
            }
        };
        var connections = PoolingHttpClientConnectionManagerBuilder.create()
                .setDnsResolver(checked)
                .setMaxConnTotal(MAX_CONNECTIONS)
                .setMaxConnPerRoute(MAX_CONNECTIONS)
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(connectTimeout))
                        .setSocketTimeout(Timeout.of(requestTimeout))
                        .build())
                .build();
        return HttpClients.custom()
                .setConnectionManager(connections)
                .disableRedirectHandling()
                .disableAutomaticRetries()
                .disableCookieManagement()
                .disableAuthCaching()
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setRedirectsEnabled(false)
                        .setResponseTimeout(Timeout.of(requestTimeout))
                        .build())
                .build();
    }

    private static String stripBrackets(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    private static long elapsed(long startedNanos) {
        return Duration.ofNanos(System.nanoTime() - startedNanos).toMillis();
    }

    private static String limit(String text) {
        return text.length() <= MAX_ERROR ? text : text.substring(0, MAX_ERROR);
    }
}

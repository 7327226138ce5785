package dev.kopek.psp.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.kopek.money.CurrencyCode;
import dev.kopek.money.Money;
import dev.kopek.psp.ChargeOutcome;
import dev.kopek.psp.PspProperties;
import dev.kopek.psp.PspRequest;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 10, defect 6 (L5): the first try times out after the PSP may have charged, the retry with the same key is
 * refused with a 4xx. That refusal proves only that the retry did nothing, so the pair is unknown, never failed.
 */
class RetryPairClassificationTest {

    private final CountDownLatch release = new CountDownLatch(1);
    private HttpServer psp;

    @AfterEach
    void stop() {
        release.countDown();
        psp.stop(0);
    }

    @Test
    void refusalOfTheRetryAfterATransportFailureIsUnknown() throws Exception {
        AtomicInteger tries = new AtomicInteger();
        psp = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        psp.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        psp.createContext("/charges", exchange -> {
            if (tries.incrementAndGet() == 1) {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] body = "{\"error\":\"invalid_api_key\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(401, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        psp.start();

        ChargeOutcome outcome = provider()
                .execute(new PspRequest.Charge(
                        "kpk_pair", new Money(1_000, CurrencyCode.of("EUR")), "pm_ok", "order-1", true));

        assertThat(tries.get()).isEqualTo(2);
        assertThat(outcome).isInstanceOf(ChargeOutcome.Unknown.class);
    }

    @Test
    void refusalOfAFirstTryIsStillFailed() throws Exception {
        psp = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        psp.createContext("/charges", exchange -> {
            byte[] body = "{\"error\":\"invalid_request\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(422, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        psp.start();

        ChargeOutcome outcome = provider()
                .execute(new PspRequest.Charge(
                        "kpk_once", new Money(1_000, CurrencyCode.of("EUR")), "pm_ok", "order-2", true));

        assertThat(outcome).isInstanceOf(ChargeOutcome.Failed.class);
    }

    private SimulatorPaymentProvider provider() {
        var properties = new PspProperties(
                null,
                0,
                Duration.ofMillis(500),
                Duration.ofMillis(300),
                Duration.ofMillis(10),
                Duration.ofMillis(20),
                Duration.ofSeconds(3),
                Duration.ofHours(24),
                "whsec_x",
                Duration.ofMinutes(5));
        return new SimulatorPaymentProvider(
                URI.create("http://127.0.0.1:" + psp.getAddress().getPort() + "/"), properties, Clock.systemUTC());
    }
}

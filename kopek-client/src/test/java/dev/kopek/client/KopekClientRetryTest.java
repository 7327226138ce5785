package dev.kopek.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KopekClientRetryTest {

    private static final String PAYMENT = """
            {"id":"pay_1","object":"payment","reference":"order-1","status":"captured","amount":1000,
             "currency":"EUR","amount_captured":1000,"metadata":{},"created_at":"2026-01-01T00:00:00Z",
             "some_field_from_a_newer_kopek":42}""";
    private static final String PROCESSING = PAYMENT.replace("\"captured\"", "\"processing\"");
    private static final RetryPolicy FAST =
            new RetryPolicy(Duration.ofSeconds(10), Duration.ofMillis(1), Duration.ofMillis(20), 6);

    private final StubServer psp = newStub();
    private final List<Duration> waits = new java.util.concurrent.CopyOnWriteArrayList<>();

    @AfterEach
    void close() throws Exception {
        psp.close();
    }

    private KopekClient client(RetryPolicy policy) {
        return KopekClient.builder(psp.uri(), "sk_test_key")
                .retryPolicy(policy)
                .requestTimeout(Duration.ofSeconds(5))
                .pause(waits::add)
                .build();
    }

    private static final String REFUND = """
            {"id":"re_1","object":"refund","payment_id":"pay_1","status":"pending","amount":300,"currency":"EUR",
             "reason":null,"psp_reference":null,"failure_reason":null,"created_at":"2026-01-01T00:00:00Z",
             "updated_at":"2026-01-01T00:00:00Z"}""";

    private static Result<Payment> pay(KopekClient client) {
        return client.createPayment(OperationKey.of("order-1/pay"), NewPayment.of("order-1", 1000, "EUR", "pm_ok"));
    }

    @Test
    void aDroppedConnectionIsRetriedWithTheSameKeyAndTheReplayIsTheAnswer() {
        psp.drop().answer(201, PAYMENT, "Idempotent-Replayed", "true");

        Result<Payment> result = pay(client(FAST));

        assertThat(result).isInstanceOf(Result.Done.class);
        assertThat(((Result.Done<Payment>) result).replayed()).isTrue();
        assertThat(result.value().status()).isEqualTo("captured");
        assertThat(psp.requests())
                .extracting(r -> r.header("Idempotency-Key"))
                .containsExactly("order-1/pay", "order-1/pay");
        assertThat(psp.requests()).extracting(StubServer.Seen::body).allMatch(b -> b.contains("\"amount\":1000"));
    }

    @Test
    void inProgressIsRetriedAfterRetryAfterWithTheSameKey() {
        psp.answer(409, "{\"code\":\"request_in_progress\"}", "Retry-After", "1")
                .answer(201, PAYMENT);

        assertThat(pay(client(FAST)).value().id()).isEqualTo("pay_1");

        assertThat(waits).containsExactly(Duration.ofSeconds(1));
        assertThat(psp.requests()).extracting(r -> r.header("Idempotency-Key")).containsOnly("order-1/pay");
    }

    @Test
    void rateLimitedWaitsAtLeastRetryAfterThenRetriesWithTheSameKey() {
        psp.answer(429, "{\"code\":\"rate_limited\",\"status\":429}", "Retry-After", "3")
                .answer(429, "{\"code\":\"rate_limited\",\"status\":429}", "Retry-After", "2")
                .answer(201, PAYMENT);

        assertThat(pay(client(FAST)).value().status()).isEqualTo("captured");

        assertThat(waits).containsExactly(Duration.ofSeconds(3), Duration.ofSeconds(2));
        assertThat(psp.requests())
                .hasSize(3)
                .extracting(r -> r.header("Idempotency-Key"))
                .containsOnly("order-1/pay");
    }

    @Test
    void aRetryAfterPastTheBudgetEndsTheRetriesInsteadOfRetryingEarly() {
        psp.answer(429, "{\"code\":\"rate_limited\"}", "Retry-After", "60");

        assertThatThrownBy(() -> pay(client(FAST))).isInstanceOfSatisfying(RetriesExhaustedException.class, e -> {
            assertThat(e.attempts()).isEqualTo(1);
            assertThat(e.lastStatus()).isEqualTo(429);
            assertThat(e.lastCode()).isEqualTo("rate_limited");
        });
        assertThat(waits).isEmpty();
        assertThat(psp.requests()).hasSize(1);
    }

    @Test
    void readsAreRetriedOnRateLimitsToo() {
        psp.answer(429, "{\"code\":\"rate_limited\"}", "Retry-After", "1").answer(200, PAYMENT);

        assertThat(client(FAST).payment("pay_1").id()).isEqualTo("pay_1");

        assertThat(waits).containsExactly(Duration.ofSeconds(1));
        assertThat(psp.requests()).extracting(r -> r.header("Idempotency-Key")).containsOnlyNulls();
    }

    @Test
    void aReplayedEndpointCreationHasNoSecret() {
        String created = """
                {"id":"we_1","object":"webhook_endpoint","url":"https://shop.example/hooks","event_types":["*"],
                 "status":"enabled","secret":"whsec_abc","secret_shown_once":true}""";
        psp.answer(201, created).answer(201, created.replace("\"whsec_abc\"", "null"), "Idempotent-Replayed", "true");
        KopekClient kopek = client(FAST);
        OperationKey key = OperationKey.of("hooks/create");

        Result<WebhookEndpoint> first = kopek.createWebhookEndpoint(key, "https://shop.example/hooks", List.of("*"));
        Result<WebhookEndpoint> again = kopek.createWebhookEndpoint(key, "https://shop.example/hooks", List.of("*"));

        assertThat(first.value().secret()).isEqualTo("whsec_abc");
        assertThat(((Result.Done<WebhookEndpoint>) again).replayed()).isTrue();
        assertThat(again.value().secret()).isNull();
        assertThat(psp.requests()).extracting(r -> r.header("Idempotency-Key")).containsOnly("hooks/create");
    }

    @ParameterizedTest
    @ValueSource(ints = {429, 500, 502, 503, 504})
    void overloadAndServerErrorsAreRetriedWithTheSameKey(int status) {
        psp.answer(status, "{\"code\":\"x\"}").answer(201, PAYMENT);

        assertThat(pay(client(FAST)).value().status()).isEqualTo("captured");
        assertThat(psp.requests())
                .hasSize(2)
                .extracting(r -> r.header("Idempotency-Key"))
                .containsOnly("order-1/pay");
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 401, 403, 404, 402})
    void refusalsAreNeverRetried(int status) {
        psp.answer(status, "{\"code\":\"refused_" + status + "\",\"detail\":\"no\",\"field\":\"amount\"}");

        assertThatThrownBy(() -> pay(client(FAST))).isInstanceOfSatisfying(KopekApiException.class, e -> {
            assertThat(e.status()).isEqualTo(status);
            assertThat(e.code()).isEqualTo("refused_" + status);
            assertThat(e.field()).isEqualTo("amount");
        });
        assertThat(psp.requests()).hasSize(1);
    }

    @Test
    void aBusinessConflictIsNotRetriedButInProgressIs() {
        psp.answer(409, "{\"code\":\"intent_has_live_attempt\"}");

        assertThatThrownBy(() -> pay(client(FAST)))
                .isInstanceOfSatisfying(
                        KopekApiException.class, e -> assertThat(e.code()).isEqualTo("intent_has_live_attempt"));
        assertThat(psp.requests()).hasSize(1);
    }

    @Test
    void aReusedKeyIsATypedErrorAndNotRetried() {
        psp.answer(422, "{\"code\":\"idempotency_key_reused\",\"detail\":\"other parameters\"}");

        assertThatThrownBy(() -> pay(client(FAST))).isInstanceOf(IdempotencyKeyReusedException.class);
        assertThat(psp.requests()).hasSize(1);
    }

    @Test
    void anUnknownOutcomeIsPendingNotAFailure() {
        psp.answer(202, PROCESSING);

        Result<Payment> result = pay(client(FAST));

        assertThat(result).isInstanceOf(Result.Pending.class);
        assertThat(result.value().isProcessing()).isTrue();
    }

    @Test
    void theBudgetEndsRetriesWithoutEverChangingTheKey() {
        for (int i = 0; i < 6; i++) {
            psp.answer(503, "{\"code\":\"unavailable\"}");
        }

        assertThatThrownBy(() -> pay(client(FAST))).isInstanceOfSatisfying(RetriesExhaustedException.class, e -> {
            assertThat(e.attempts()).isEqualTo(6);
            assertThat(e.lastStatus()).isEqualTo(503);
        });
        assertThat(psp.requests())
                .hasSize(6)
                .extracting(r -> r.header("Idempotency-Key"))
                .containsOnly("order-1/pay");
    }

    @Test
    void awaitPollsUntilTheOutcomeIsKnown() {
        psp.answer(200, PROCESSING).answer(200, PROCESSING).answer(200, PAYMENT);

        Awaited awaited = client(FAST).awaitPayment("pay_1", Duration.ofSeconds(10));

        assertThat(awaited).isInstanceOf(Awaited.Known.class);
        assertThat(awaited.payment().status()).isEqualTo("captured");
        assertThat(psp.requests()).extracting(StubServer.Seen::path).containsOnly("/v1/payments/pay_1");
    }

    @Test
    void aPaymentThatRequiresActionIsAnsweredAtOnceWithWhatTheCustomerMustDo() {
        psp.answer(200, PROCESSING)
                .answer(
                        200,
                        PAYMENT.replace("\"captured\"", "\"requires_action\"")
                                .replace(
                                        "\"metadata\":{}",
                                        "\"metadata\":{},\"next_action\":{\"type\":\"redirect_to_url\","
                                                + "\"redirect_url\":\"https://hooks.stripe.com/3d_secure/x\"}"))
                .answer(200, PAYMENT);

        Awaited awaited = client(FAST).awaitPayment("pay_1", Duration.ofSeconds(10));

        assertThat(awaited).isInstanceOfSatisfying(Awaited.ActionRequired.class, action -> {
            assertThat(action.payment().requiresAction()).isTrue();
            assertThat(action.nextAction())
                    .isEqualTo(new NextAction("redirect_to_url", "https://hooks.stripe.com/3d_secure/x"));
        });
        assertThat(psp.requests())
                .as("polling cannot end it: the customer must act")
                .hasSize(2);
    }

    @Test
    void aHeldAnswerEndsWhenTheBudgetEndsNotARequestTimeoutLater() {
        psp.hold();
        KopekClient kopek = KopekClient.builder(psp.uri(), "sk_test_key")
                .retryPolicy(new RetryPolicy(Duration.ofMillis(300), Duration.ofMillis(1), Duration.ofMillis(20), 6))
                .requestTimeout(Duration.ofSeconds(30))
                .pause(waits::add)
                .build();
        long started = System.nanoTime();

        assertThatThrownBy(() -> pay(kopek)).isInstanceOfSatisfying(RetriesExhaustedException.class, e -> {
            assertThat(e.lastStatus()).isZero();
            assertThat(e.getCause()).isInstanceOf(HttpTimeoutException.class);
        });

        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("a 300 ms budget, not a 30 s request timeout")
                .isLessThan(Duration.ofSeconds(10));
        assertThat(psp.requests()).hasSize(1);
    }

    /**
     * After a Retry-After of 9 s of a 10 s budget (waited on a moved clock, not slept), the next try has the second
     * that is left, not the 30 s request timeout nor the whole budget.
     */
    @Test
    void aTryAfterAWaitHasOnlyWhatIsLeftOfTheBudget() {
        psp.answer(503, "{\"code\":\"database_unavailable\"}", "Retry-After", "9")
                .hold();
        MovedClock clock = new MovedClock();
        KopekClient kopek = KopekClient.builder(psp.uri(), "sk_test_key")
                .retryPolicy(new RetryPolicy(Duration.ofSeconds(10), Duration.ofMillis(1), Duration.ofMillis(20), 6))
                .requestTimeout(Duration.ofSeconds(30))
                .clock(clock)
                .pause(wait -> {
                    waits.add(wait);
                    clock.move(wait);
                })
                .build();
        long started = System.nanoTime();

        assertThatThrownBy(() -> pay(kopek)).isInstanceOfSatisfying(RetriesExhaustedException.class, e -> {
            assertThat(e.attempts()).isEqualTo(2);
            assertThat(e.getCause()).isInstanceOf(HttpTimeoutException.class);
        });

        assertThat(waits).containsExactly(Duration.ofSeconds(9));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        assertThat(psp.requests())
                .hasSize(2)
                .extracting(r -> r.header("Idempotency-Key"))
                .containsOnly("order-1/pay");
    }

    @Test
    void aRefundIsPendingAndAwaitPollsUntilItIsFinal() {
        psp.answer(202, REFUND).answer(200, REFUND).answer(200, REFUND.replace("\"pending\"", "\"succeeded\""));
        KopekClient kopek = client(FAST);

        Result<Refund> refund = kopek.refund(OperationKey.of("order-1/refund"), "pay_1", 300, null);
        Result<Refund> awaited = kopek.awaitRefund(refund.value().id(), Duration.ofSeconds(10));

        assertThat(refund).isInstanceOf(Result.Pending.class);
        assertThat(awaited).isInstanceOf(Result.Done.class);
        assertThat(awaited.value().status()).isEqualTo("succeeded");
        assertThat(psp.requests())
                .extracting(StubServer.Seen::path)
                .containsExactly("/v1/payments/pay_1/refunds", "/v1/refunds/re_1", "/v1/refunds/re_1");
    }

    @Test
    void anAwaitThatRunsOutOfTimeAnswersTheRefundStillPending() {
        MovedClock clock = new MovedClock();
        for (int i = 0; i < 20; i++) {
            psp.answer(200, REFUND);
        }
        KopekClient kopek = KopekClient.builder(psp.uri(), "sk_test_key")
                .retryPolicy(FAST)
                .clock(clock)
                .pause(wait -> {
                    waits.add(wait);
                    clock.move(wait);
                })
                .build();

        Result<Refund> awaited = kopek.awaitRefund("re_1", Duration.ofSeconds(3));

        assertThat(awaited).isInstanceOf(Result.Pending.class);
        assertThat(awaited.value().isPending()).isTrue();
        assertThat(waits)
                .containsExactly(
                        Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(400), Duration.ofMillis(800));
        assertThat(psp.requests()).hasSize(5);
    }

    @Test
    void keysAndIdsAreCheckedBeforeAnythingIsSent() {
        assertThatThrownBy(() -> OperationKey.of("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OperationKey.of("a\u0000b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OperationKey.of("x".repeat(256))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> client(FAST).payment("../admin")).isInstanceOf(IllegalArgumentException.class);
        assertThat(psp.requests()).isEmpty();
        assertThat(List.of(OperationKey.generate(), OperationKey.generate())).doesNotHaveDuplicates();
    }

    /** The system clock, moved forward by what the client waited, so waits take no time. */
    private static final class MovedClock extends Clock {

        private final AtomicReference<Duration> moved = new AtomicReference<>(Duration.ZERO);

        void move(Duration by) {
            moved.accumulateAndGet(by, Duration::plus);
        }

        @Override
        public Instant instant() {
            return Instant.now().plus(moved.get());
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }
    }

    private static StubServer newStub() {
        try {
            return new StubServer();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}

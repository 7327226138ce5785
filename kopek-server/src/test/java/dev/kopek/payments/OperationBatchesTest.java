package dev.kopek.payments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.idempotency.KeyStatus;
import dev.kopek.ledger.domain.FeeRule;
import dev.kopek.ledger.jdbc.FeeStore;
import dev.kopek.money.MerchantId;
import dev.kopek.money.PaymentId;
import dev.kopek.payments.BatchRecording.Recordable;
import dev.kopek.payments.PhaseThreeBatches.Recorded;
import dev.kopek.payments.domain.PaymentOperation;
import dev.kopek.psp.ChargeOutcome;
import dev.kopek.simulator.MovementRecord;
import dev.kopek.simulator.SimulatorConfig;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.PendingOperations;
import dev.kopek.support.PendingOperations.Pending;
import dev.kopek.support.Race;
import dev.kopek.support.RoundTrips;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;

/**
 * Phase 3 of concurrent captures and refunds in one transaction of two statements, as payments' (issue 25 §2): each request keeps
 * its own answer. A batch is judged row by row on the database, against what the one-operation path writes for the
 * same captures; a race of captures and refunds released together is judged at the simulator and in the ledger.
 */
class OperationBatchesTest extends IntegrationTest {

    private static final int CAPTURES = 24;

    private static final int REFUNDS = 8;

    @Autowired
    PhaseThreeBatches batches;

    @Autowired
    OutcomeRecorder outcomes;

    @Autowired
    OperationRecording recording;

    @Autowired
    IdempotencyKeys keys;

    @Autowired
    FeeStore fees;

    @Autowired
    MeterRegistry meters;

    @Autowired
    DataSource dataSource;

    @Autowired
    ApplicationContext context;

    @Test
    void oneBatchRecordsEveryCaptureInTwoStatementsAndOneCommitAsTheOneOperationPathWould() {
        Api api = merchantWithAccounts();
        MerchantId merchant = merchantOf(authorized(api));
        fees.put(merchant, "EUR", new FeeRule(290, 30), clock().instant());
        List<Shape> shapes = List.of(
                new Shape(4_000, false), new Shape(3_000, true), new Shape(10_000, false), new Shape(2_500, false));
        List<Pending> together =
                shapes.stream().map(s -> capture(authorized(api), s)).toList();
        List<Pending> alone =
                shapes.stream().map(s -> capture(authorized(api), s)).toList();

        List<Recorded<PaymentOperation>> answers = new ArrayList<>();
        RoundTrips.Count count = RoundTrips.of(() -> answers.addAll(batches.runOperations(
                together.stream().map(p -> recordable(p, "psp-cap")).toList())));
        alone.forEach(p -> outcomes.record(recording, p.operation(), p.key(), 1, succeeded("psp-cap"), null));

        assertThat(count.statements()).as(count.toString()).isEqualTo(2);
        assertThat(count.commits()).isEqualTo(1);
        for (int i = 0; i < shapes.size(); i++) {
            Pending mine = together.get(i);
            Pending twin = alone.get(i);
            assertThat(answers.get(i)).as("capture %s", shapes.get(i)).isInstanceOf(Recorded.Settled.class);
            var settled = (Recorded.Settled<PaymentOperation>) answers.get(i);
            assertThat(settled.status()).isEqualTo(200);
            var key = keys.find(mine.key()).orElseThrow();
            assertThat(key.status()).isEqualTo(KeyStatus.COMPLETED);
            assertThat(key.responseBody()).isEqualTo(settled.body());
            assertThat(operationStatus(mine)).isEqualTo("SUCCEEDED");
            assertThat(amounts(mine)).as("the payment's amounts as alone").isEqualTo(amounts(twin));
            assertThat(entries(mine))
                    .as("postings, fee and hold computed in SQL as alone")
                    .isEqualTo(entries(twin));
            assertThat(outboxTypes(mine.operation().id()))
                    .isEqualTo(outboxTypes(twin.operation().id()));
            assertThat(outboxTypes(mine.operation().payment().value()))
                    .as("the payment's events as alone")
                    .isEqualTo(outboxTypes(twin.operation().payment().value()));
        }
        assertThat(amounts(together.get(1)))
                .as("a final capture released the rest")
                .endsWith("7000");
        assertThat(BatchRows.unbalancedTransactions(jdbc, merchant)).isZero();
    }

    @Test
    void refundsConfirmedAndRefusedGoInOneBatchWithACaptureAsTheOneOperationPathWouldRecordThem() {
        Api api = merchantWithAccounts();
        MerchantId merchant = merchantOf(authorized(api));
        List<Pending> together =
                List.of(refund(api, 4_000), refund(api, 3_000), capture(authorized(api), new Shape(5_000, false)));
        List<Pending> alone =
                List.of(refund(api, 4_000), refund(api, 3_000), capture(authorized(api), new Shape(5_000, false)));
        List<ChargeOutcome> psp = List.of(
                succeeded("psp-refund"), new ChargeOutcome.Declined("refund_refused", null), succeeded("psp-cap"));

        List<Recorded<PaymentOperation>> answers = new ArrayList<>();
        RoundTrips.Count count = RoundTrips.of(() -> answers.addAll(batches.runOperations(IntStream.range(0, 3)
                .mapToObj(i -> new Recordable<>(
                        together.get(i).operation(), together.get(i).key(), 1, psp.get(i)))
                .toList())));
        for (int i = 0; i < 3; i++) {
            Pending twin = alone.get(i);
            outcomes.record(recording, twin.operation(), twin.key(), 1, psp.get(i), null);
        }

        assertThat(count.statements()).as(count.toString()).isEqualTo(2);
        assertThat(count.commits()).isEqualTo(1);
        for (int i = 0; i < 3; i++) {
            Pending mine = together.get(i);
            Pending twin = alone.get(i);
            assertThat(answers.get(i)).isInstanceOf(Recorded.Settled.class);
            var settled = (Recorded.Settled<PaymentOperation>) answers.get(i);
            assertThat(settled.status()).isEqualTo(200);
            assertThat(keys.find(mine.key()).orElseThrow().responseBody()).isEqualTo(settled.body());
            assertThat(operationStatus(mine)).isEqualTo(operationStatus(twin));
            assertThat(amounts(mine)).as("the payment's amounts as alone").isEqualTo(amounts(twin));
            assertThat(entries(mine)).as("postings as alone").isEqualTo(entries(twin));
            assertThat(outboxTypes(mine.operation().id()))
                    .isEqualTo(outboxTypes(twin.operation().id()));
            assertThat(outboxTypes(mine.operation().payment().value()))
                    .as("the payment's events as alone")
                    .isEqualTo(outboxTypes(twin.operation().payment().value()));
        }
        assertThat(operationStatus(together.get(0))).isEqualTo("SUCCEEDED");
        assertThat(operationStatus(together.get(1))).isEqualTo("FAILED");
        assertThat(entries(together.get(0))).anyMatch(e -> e.startsWith("REFUND_SUCCEEDED"));
        assertThat(entries(together.get(1))).anyMatch(e -> e.startsWith("REFUND_RELEASED"));
        assertThat(BatchRows.unbalancedTransactions(jdbc, merchant)).isZero();
    }

    @Test
    void aStaleOwnerAParkedKeyARefusedMoveAndASecondCaptureOfOnePaymentGetTodaysAnswer() {
        Api api = merchantWithAccounts();
        MerchantId merchant = merchantOf(authorized(api));
        Pending good = capture(authorized(api), new Shape(1_000, false));
        Pending stale = capture(authorized(api), new Shape(1_000, false));
        Pending parked = capture(authorized(api), new Shape(1_000, false));
        Pending refused = capture(authorized(api), new Shape(1_000, false));
        PaymentId shared = authorized(api);
        Pending first = capture(shared, new Shape(3_000, false));
        Pending second = capture(shared, new Shape(3_000, false));
        Pending alsoGood = capture(authorized(api), new Shape(10_000, false));
        jdbc.sql("UPDATE idempotency_keys SET attempt = 2 WHERE merchant_id = :m AND idempotency_key = :k")
                .param("m", merchant.value())
                .param("k", stale.key().key())
                .update();
        assertThat(keys.park(parked.key(), 1)).isTrue();
        // Someone moved the operation past PENDING while its key stayed with this owner: a move the table refuses.
        jdbc.sql("UPDATE payment_operations SET status = 'FAILED', version = version + 1 WHERE id = :id")
                .param("id", refused.operation().id())
                .update();

        List<Recorded<PaymentOperation>> answers =
                batches.runOperations(List.of(good, stale, parked, refused, first, second, alsoGood).stream()
                        .map(p -> recordable(p, "psp-" + p.operation().id()))
                        .toList());

        assertThat(answers.get(0)).isInstanceOf(Recorded.Settled.class);
        assertThat(answers.get(1)).isInstanceOf(Recorded.Alone.class);
        assertThat(answers.get(2)).isInstanceOf(Recorded.Alone.class);
        assertThat(answers.get(3)).isInstanceOf(Recorded.Alone.class);
        assertThat(answers.get(4)).isInstanceOf(Recorded.Settled.class);
        assertThat(answers.get(5))
                .as("a second capture of one payment goes alone")
                .isInstanceOf(Recorded.Alone.class);
        assertThat(answers.get(6)).isInstanceOf(Recorded.Settled.class);
        assertThat(operationStatus(good)).isEqualTo("SUCCEEDED");
        assertThat(operationStatus(alsoGood)).isEqualTo("SUCCEEDED");
        assertThat(operationStatus(stale)).as("a stale owner moved nothing").isEqualTo("PENDING");
        assertThat(operationStatus(parked)).as("a parked key goes alone").isEqualTo("PENDING");
        assertThat(operationStatus(second)).isEqualTo("PENDING");
        assertThat(entries(stale)).isEmpty();
        assertThat(entries(parked)).isEmpty();
        assertThat(amounts(first))
                .as("one capture of the shared payment so far")
                .startsWith("3000 ");

        // What each of them then meets on the one-operation path is today's answer.
        assertThatThrownBy(() -> record(stale)).isInstanceOf(StaleAttempt.class);
        assertThat(operationStatus(stale)).isEqualTo("PENDING");
        assertThatThrownBy(() -> record(refused))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("outside the predecessors");
        assertThat(record(parked))
                .isInstanceOfSatisfying(
                        PaymentAnswer.Final.class, f -> assertThat(f.status()).isEqualTo(200));
        assertThat(operationStatus(parked)).isEqualTo("SUCCEEDED");
        assertThat(record(second))
                .isInstanceOfSatisfying(
                        PaymentAnswer.Final.class, f -> assertThat(f.status()).isEqualTo(200));
        assertThat(amounts(second)).as("both captures of the shared payment").startsWith("6000 ");
        // The refused move's key was left to its owner on purpose; closed here, so no later reconciler pass meets it.
        jdbc.sql("""
                        UPDATE idempotency_keys SET status = 'COMPLETED', response_code = 402, response_body = '{}'
                         WHERE merchant_id = :m AND idempotency_key = :k""")
                .param("m", merchant.value())
                .param("k", refused.key().key())
                .update();
        assertThat(BatchRows.unbalancedTransactions(jdbc, merchant)).isZero();
    }

    @Test
    void capturesAndRefundsReleasedTogetherShareCommitsAndEachMovesMoneyOnce() throws Exception {
        SIMULATOR.configure(SimulatorConfig.defaults().withLatency(5, 5));
        Api api = merchantWithAccounts();
        MerchantId merchant = merchantOf(authorized(api));
        List<Api.Response> authorizations = IntStream.range(0, CAPTURES)
                .mapToObj(i -> api.pay(Api.newKey(), manual(1_000 + i)))
                .toList();
        List<Api.Response> refundable = IntStream.range(0, REFUNDS)
                .mapToObj(i -> captured(api, api.pay(Api.newKey(), manual(2_000))))
                .toList();
        BatchRows.Sizes sizes = BatchRows.Sizes.since(meters, "3op");

        List<Api.Response> answers;
        // Two refunds of 1,500 race for each captured 2,000.
        try {
            answers = BatchRows.queuedBehindPayable(
                    dataSource,
                    merchant,
                    batches::operationsSubmitted,
                    CAPTURES,
                    () -> Race.of(CAPTURES + 2 * REFUNDS, i -> {
                        if (i < CAPTURES) {
                            return api.post(
                                    "/v1/payments/" + authorizations.get(i).text("id") + "/capture",
                                    Api.newKey(),
                                    "{}");
                        }
                        String payment = refundable.get((i - CAPTURES) / 2).text("id");
                        return api.post("/v1/payments/" + payment + "/refunds", Api.newKey(), "{\"amount\":1500}");
                    }));
            reconciler.reconcileOnce(); // runs the accepted refunds (their dispatch is off in tests)
        } finally {
            SIMULATOR.configure(SimulatorConfig.defaults());
        }

        for (int i = 0; i < CAPTURES; i++) {
            assertThat(answers.get(i).status()).isEqualTo(200);
            assertThat(answers.get(i).text("status")).isEqualTo("captured");
            String charge = authorizations.get(i).text("psp_reference");
            assertThat(succeededAtPsp(charge, MovementRecord.CAPTURE))
                    .as("money moved at the PSP = one 2xx")
                    .isEqualTo(1);
            assertThat(SIMULATOR.capturedTotal(charge)).isEqualTo(1_000 + i);
            String id = answers.get(i).text("id");
            assertThat(BatchRows.postingKinds(jdbc, id))
                    .as("posted exactly once")
                    .containsExactly("AUTHORIZATION_HELD", "CAPTURED");
            assertThat(recorder.typesFor(id)).as("told in-process").contains("payment.captured");
        }
        for (int r = 0; r < REFUNDS; r++) {
            List<Api.Response> pair = answers.subList(CAPTURES + 2 * r, CAPTURES + 2 * r + 2);
            assertThat(pair.stream().filter(a -> a.status() == 202))
                    .as("refunds never exceed the captured amount")
                    .hasSize(1);
            String charge = refundable.get(r).text("psp_reference");
            assertThat(SIMULATOR.refundedTotal(charge)).isEqualTo(1_500);
            assertThat(SIMULATOR.refundedTotal(charge)).isLessThanOrEqualTo(SIMULATOR.capturedTotal(charge));
        }
        // The accepted refunds ran after the race, one by one, through the same lane.
        assertThat(sizes.requests()).isEqualTo(CAPTURES + REFUNDS);
        assertThat(sizes.batches())
                .as("fewer batches (one commit each) than captures and refunds")
                .isLessThan(CAPTURES + REFUNDS);
        assertThat(BatchRows.unbalancedTransactions(jdbc, merchant)).isZero();
    }

    /** A refund of {@code amount} of a payment captured for 10,000, after its phase 1. */
    private Pending refund(Api api, long amount) {
        PaymentId payment = PaymentId.parse(
                        captured(api, api.pay(Api.newKey(), manual(10_000))).text("id"))
                .orElseThrow();
        return PendingOperations.in(context).refund(payment, amount);
    }

    /** A capture's amount and whether it is final. */
    private record Shape(long amount, boolean finalCapture) {}

    private Pending capture(PaymentId payment, Shape shape) {
        return PendingOperations.in(context).capture(payment, shape.amount(), shape.finalCapture());
    }

    private static Recordable<PaymentOperation> recordable(Pending pending, String pspReference) {
        return new Recordable<>(pending.operation(), pending.key(), 1, succeeded(pspReference));
    }

    private static ChargeOutcome succeeded(String pspReference) {
        return new ChargeOutcome.Succeeded(pspReference);
    }

    private PaymentAnswer record(Pending pending) {
        return batches.record(pending.operation(), pending.key(), 1, succeeded("psp-alone"), null);
    }

    /** A merchant whose ledger accounts for captures exist, as in the mixed workload. */
    private Api merchantWithAccounts() {
        Api api = newMerchant();
        captured(api, api.pay(Api.newKey(), manual(1_000)));
        return api;
    }

    private static String manual(long amount) {
        return Api.manualPayment(newReference(), amount);
    }

    private static Api.Response captured(Api api, Api.Response authorized) {
        assertThat(authorized.status()).isEqualTo(201);
        Api.Response captured = api.post("/v1/payments/" + authorized.text("id") + "/capture", Api.newKey(), "{}");
        assertThat(captured.status()).isEqualTo(200);
        return captured;
    }

    private PaymentId authorized(Api api) {
        Api.Response authorized = api.pay(Api.newKey(), manual(10_000));
        assertThat(authorized.status()).isEqualTo(201);
        return PaymentId.parse(authorized.text("id")).orElseThrow();
    }

    private MerchantId merchantOf(PaymentId payment) {
        return PendingOperations.in(context).merchantOf(payment);
    }

    private static long succeededAtPsp(String charge, String type) {
        return SIMULATOR.movements(charge).stream()
                .filter(m -> m.type().equals(type) && m.status().equals("succeeded"))
                .count();
    }

    private String operationStatus(Pending pending) {
        return jdbc.sql("SELECT status FROM payment_operations WHERE id = :id")
                .param("id", pending.operation().id())
                .query(String.class)
                .single();
    }

    /** The operation's payment: captured, pending, status, version, refunded, refund pending and released. */
    private String amounts(Pending pending) {
        return jdbc.sql("""
                SELECT amount_captured || ' ' || amount_capture_pending || ' ' || status || ' ' || version
                       || ' ' || amount_refunded || ' ' || amount_refund_pending || ' ' || amount_released
                  FROM payments WHERE id = :id""")
                .param("id", pending.operation().payment().value())
                .query(String.class)
                .single();
    }

    /** The operation's postings, comparable across operations. */
    private List<String> entries(Pending pending) {
        return BatchRows.entries(jdbc, "source_id", pending.operation().id());
    }

    private List<String> outboxTypes(UUID resource) {
        return BatchRows.outboxTypes(jdbc, resource);
    }
}

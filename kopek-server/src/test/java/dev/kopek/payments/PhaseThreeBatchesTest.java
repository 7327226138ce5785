package dev.kopek.payments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.idempotency.KeyStatus;
import dev.kopek.ledger.domain.FeeRule;
import dev.kopek.ledger.jdbc.FeeStore;
import dev.kopek.money.MerchantId;
import dev.kopek.money.Money;
import dev.kopek.payments.BatchRecording.Recordable;
import dev.kopek.payments.PhaseThreeBatches.Recorded;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentRequest;
import dev.kopek.psp.ChargeOutcome;
import dev.kopek.simulator.SimulatorConfig;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.Race;
import dev.kopek.support.RoundTrips;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;

/**
 * Phase 3 of concurrent payments in one transaction of two statements: each request keeps its own answer. A batch is
 * judged row by row on the database (what it wrote against what the one-payment path writes), and a race of many
 * payments at once is judged at the simulator and in the ledger.
 */
class PhaseThreeBatchesTest extends IntegrationTest {

    private static final int RACERS = 32;

    @Autowired
    PhaseThreeBatches batches;

    @Autowired
    OutcomeRecorder outcomes;

    @Autowired
    PaymentRecording recording;

    @Autowired
    IdempotencyKeys keys;

    @Autowired
    ApplicationContext context;

    @Autowired
    FeeStore fees;

    @Autowired
    MeterRegistry meters;

    @Autowired
    DataSource dataSource;

    @Test
    void oneBatchRecordsEveryOutcomeInTwoStatementsAndOneCommitAsTheOnePaymentPathWould() {
        MerchantId merchant = merchantWithAccounts();
        fees.put(merchant, "EUR", new FeeRule(290, 30), clock().instant());
        Recordable<Payment> captured = recordable(merchant, "automatic", new ChargeOutcome.Succeeded("ch_1"));
        Recordable<Payment> authorized = recordable(merchant, "manual", authorizedForADay("ch_2"));
        Recordable<Payment> declined =
                recordable(merchant, "automatic", new ChargeOutcome.Declined("insufficient_funds", "ch_3"));
        Recordable<Payment> failed = recordable(merchant, "automatic", new ChargeOutcome.Failed("psp_error"));
        Recordable<Payment> capturedAlone = recordable(merchant, "automatic", new ChargeOutcome.Succeeded("ch_5"));
        Recordable<Payment> authorizedAlone = recordable(merchant, "manual", authorizedForADay("ch_6"));

        List<Recorded<Payment>> answers = new ArrayList<>();
        RoundTrips.Count count = RoundTrips.of(
                () -> answers.addAll(batches.runPayments(List.of(captured, authorized, declined, failed))));
        alone(capturedAlone);
        alone(authorizedAlone);

        assertThat(count.statements()).as(count.toString()).isEqualTo(2);
        assertThat(count.commits()).isEqualTo(1);
        assertThat(answers).allMatch(a -> a instanceof Recorded.Settled);
        assertThat(statusOf(captured)).isEqualTo("CAPTURED");
        assertThat(statusOf(authorized)).isEqualTo("AUTHORIZED");
        assertThat(statusOf(declined)).isEqualTo("DECLINED");
        assertThat(statusOf(failed)).isEqualTo("FAILED");
        for (int i = 0; i < answers.size(); i++) {
            Recordable<Payment> r =
                    List.of(captured, authorized, declined, failed).get(i);
            var key = keys.find(r.ck()).orElseThrow();
            assertThat(key.status()).isEqualTo(KeyStatus.COMPLETED);
            assertThat(key.responseCode()).isEqualTo(201);
            assertThat(key.responseBody()).isEqualTo(((Recorded.Settled<Payment>) answers.get(i)).body());
            assertThat(outboxTypes(r))
                    .containsExactly("payment.created", "payment." + statusOf(r).toLowerCase(Locale.ROOT));
        }
        assertThat(entries(captured)).as("fee computed in SQL as alone").isEqualTo(entries(capturedAlone));
        assertThat(entries(authorized)).isEqualTo(entries(authorizedAlone));
        assertThat(entries(declined)).isEmpty();
        assertThat(entries(failed)).isEmpty();
        assertThat(BatchRows.unbalancedTransactions(jdbc, merchant)).isZero();
    }

    @Test
    void aStaleOwnerAndAParkedKeyInABatchGetTodaysAnswerAndTheOthersTheirs() {
        MerchantId merchant = merchantWithAccounts();
        Recordable<Payment> good = recordable(merchant, "automatic", new ChargeOutcome.Succeeded("ch_good"));
        Recordable<Payment> stale = recordable(merchant, "automatic", new ChargeOutcome.Succeeded("ch_stale"));
        Recordable<Payment> parked = recordable(merchant, "automatic", new ChargeOutcome.Succeeded("ch_parked"));
        Recordable<Payment> alsoGood = recordable(merchant, "manual", authorizedForADay("ch_auth"));
        jdbc.sql("UPDATE idempotency_keys SET attempt = 2 WHERE merchant_id = :m AND idempotency_key = :k")
                .param("m", merchant.value())
                .param("k", stale.ck().key())
                .update();
        assertThat(keys.park(parked.ck(), 1)).isTrue();

        List<Recorded<Payment>> answers = batches.runPayments(List.of(good, stale, parked, alsoGood));

        assertThat(answers.get(0)).isInstanceOf(Recorded.Settled.class);
        assertThat(answers.get(1)).isInstanceOf(Recorded.Alone.class);
        assertThat(answers.get(2)).isInstanceOf(Recorded.Alone.class);
        assertThat(answers.get(3)).isInstanceOf(Recorded.Settled.class);
        assertThat(statusOf(good)).isEqualTo("CAPTURED");
        assertThat(statusOf(alsoGood)).isEqualTo("AUTHORIZED");
        assertThat(statusOf(stale)).as("a stale owner moved nothing").isEqualTo("PENDING");
        assertThat(statusOf(parked)).as("a parked key goes alone").isEqualTo("PENDING");
        assertThat(entries(stale)).isEmpty();
        assertThat(entries(parked)).isEmpty();

        // What each of them then meets on the one-payment path is today's answer.
        assertThatThrownBy(() -> batches.record(stale.resource(), stale.ck(), 1, stale.outcome(), null))
                .isInstanceOf(StaleAttempt.class);
        assertThat(statusOf(stale)).isEqualTo("PENDING");
        PaymentAnswer settledAfterAll = batches.record(parked.resource(), parked.ck(), 1, parked.outcome(), null);
        assertThat(settledAfterAll)
                .isInstanceOfSatisfying(
                        PaymentAnswer.Final.class, f -> assertThat(f.status()).isEqualTo(201));
        assertThat(statusOf(parked)).isEqualTo("CAPTURED");
        assertThat(entries(parked)).hasSize(2);
        assertThat(BatchRows.unbalancedTransactions(jdbc, merchant)).isZero();
    }

    @Test
    void paymentsReleasedTogetherShareCommitsAndEachMovesMoneyOnce() throws Exception {
        SIMULATOR.configure(SimulatorConfig.defaults().withLatency(5, 5));
        MerchantId merchant = merchantWithAccounts();
        Api api = new Api(baseUri(), merchants.issueKey(merchant).secret());
        List<String> references =
                IntStream.range(0, RACERS).mapToObj(i -> newReference()).toList();
        BatchRows.Sizes sizes = BatchRows.Sizes.since(meters, "3");

        List<Api.Response> answers;
        try {
            answers = BatchRows.queuedBehindPayable(
                    dataSource,
                    merchant,
                    batches::submitted,
                    RACERS,
                    () -> Race.of(
                            RACERS,
                            i -> api.pay(Api.newKey(), Api.payment(references.get(i), 1000 + i, "EUR", "pm_ok"))));
        } finally {
            SIMULATOR.configure(SimulatorConfig.defaults());
        }

        assertThat(answers).allSatisfy(a -> assertThat(a.status()).isEqualTo(201));
        for (int i = 0; i < RACERS; i++) {
            assertThat(chargesAtPsp(references.get(i)))
                    .as("money moved at the PSP = one 2xx")
                    .isEqualTo(1);
            String id = answers.get(i).text("id");
            assertThat(BatchRows.postingKinds(jdbc, id))
                    .as("posted exactly once")
                    .containsExactly("CAPTURED");
            assertThat(answers.get(i).text("status")).isEqualTo("captured");
            assertThat(recorder.typesFor(id)).as("told in-process").contains("payment.captured");
        }
        assertThat(sizes.requests()).isEqualTo(RACERS);
        assertThat(sizes.batches())
                .as("fewer batches (one commit each) than payments")
                .isLessThan(RACERS);
        assertThat(BatchRows.unbalancedTransactions(jdbc, merchant)).isZero();
    }

    /** The one-payment path, as every payment ran phase 3 before batches. */
    private void alone(Recordable<Payment> r) {
        outcomes.record(recording, r.resource(), r.ck(), r.attempt(), r.outcome(), null);
    }

    /** A merchant whose ledger accounts exist (one payment captured, one authorized), as in the closed loop. */
    private MerchantId merchantWithAccounts() {
        MerchantId merchant = merchants.create("Batch3 " + newReference()).id();
        Api api = new Api(baseUri(), merchants.issueKey(merchant).secret());
        assertThat(api.pay(Api.newKey(), Api.payment(newReference(), 1_000, "EUR", "pm_ok"))
                        .status())
                .isEqualTo(201);
        assertThat(api.pay(Api.newKey(), Api.manualPayment(newReference(), 1_000))
                        .status())
                .isEqualTo(201);
        return merchant;
    }

    /** A payment after its phase 1, its key owned by attempt 1, and the outcome its PSP gave. */
    private Recordable<Payment> recordable(MerchantId merchant, String captureMethod, ChargeOutcome outcome) {
        ClientKey ck = new ClientKey(merchant, PaymentService.OPERATION, Api.newKey());
        var request = new PaymentRequest(newReference(), Money.of(2_345, "EUR"), "pm_ok", captureMethod, null, null);
        Payment inserted = PendingPayments.claimAndInsert(context, ck, request);
        return new Recordable<>(inserted, ck, 1, outcome);
    }

    /** The PSP's authorization of {@code charge}, capturable for a day. */
    private ChargeOutcome authorizedForADay(String charge) {
        return new ChargeOutcome.Authorized(charge, clock().instant().plusSeconds(86_400));
    }

    private String statusOf(Recordable<Payment> r) {
        return jdbc.sql("SELECT status FROM payments WHERE id = :id")
                .param("id", r.resource().id().value())
                .query(String.class)
                .single();
    }

    /** The payment's postings, comparable across payments. */
    private List<String> entries(Recordable<Payment> r) {
        return BatchRows.entries(jdbc, "payment_id", r.resource().id().value());
    }

    private List<String> outboxTypes(Recordable<Payment> r) {
        return BatchRows.outboxTypes(jdbc, r.resource().id().value());
    }
}

package dev.kopek.payments;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.Fingerprint;
import dev.kopek.money.CurrencyCode;
import dev.kopek.money.MerchantId;
import dev.kopek.money.Money;
import dev.kopek.money.PaymentId;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.payments.PhaseOneBatches.Admission;
import dev.kopek.payments.PhaseOneBatches.Admitted;
import dev.kopek.payments.domain.PaymentRequest;
import dev.kopek.simulator.SimulatorConfig;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.Race;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Phase 1 of concurrent new payments in one statement: each request keeps its own answer. The batch's statement is
 * judged row by row on the database, and a race of every kind of request at once is judged at the simulator.
 */
class PhaseOneBatchesTest extends IntegrationTest {

    @Autowired
    PhaseOneBatches batches;

    @Autowired
    MeterRegistry meters;

    @Autowired
    DataSource dataSource;

    private static final int RACERS = 48;

    @Test
    void oneStatementDecidesEachRowOnItsOwn() {
        MerchantId merchant = merchants.create("Batch " + newReference()).id();
        String existingKey = Api.newKey();
        Admission first = admission(merchant, existingKey, newReference());
        assertThat(batches.run(List.of(first, admission(merchant, Api.newKey(), newReference()))))
                .allMatch(a -> a instanceof Admitted.Inserted);

        String sharedKey = Api.newKey();
        Admission a = admission(merchant, sharedKey, newReference());
        Admission b = admission(merchant, Api.newKey(), newReference());
        Admission existing = admission(merchant, existingKey, newReference());
        Admission sameKeyAgain = admission(merchant, sharedKey, newReference());
        List<Admitted> answers = batches.run(List.of(a, b, existing, sameKeyAgain));

        assertThat(answers.get(0)).isInstanceOf(Admitted.Inserted.class);
        assertThat(answers.get(1)).isInstanceOf(Admitted.Inserted.class);
        assertThat(answers.get(2)).as("a key that exists").isInstanceOf(Admitted.KeyExists.class);
        assertThat(answers.get(3)).as("a key an earlier row carries").isInstanceOf(Admitted.Alone.class);
        assertThat(((Admitted.Inserted) answers.get(0)).payment()).isEqualTo(a.pending());
        assertThat(paymentsFor(a, b, existing, sameKeyAgain))
                .containsExactlyInAnyOrder(a.pending().reference(), b.pending().reference());
        assertThat(createdEventsFor(a, b, existing, sameKeyAgain)).isEqualTo(2);
        assertThat(keyResource(merchant, existingKey))
                .isEqualTo(first.pending().id().value().toString());
        assertThat(keyResource(merchant, sharedKey))
                .isEqualTo(a.pending().id().value().toString());
    }

    @Test
    void aBatchRefusedAsAWholeWritesNothingAndSendsEachRequestAlone() {
        MerchantId merchant = merchants.create("Batch " + newReference()).id();
        String intent = newReference();
        assertThat(batches.run(List.of(
                        admission(merchant, Api.newKey(), intent), admission(merchant, Api.newKey(), newReference()))))
                .allMatch(a -> a instanceof Admitted.Inserted);

        Admission secondLiveAttempt = admission(merchant, Api.newKey(), intent);
        Admission other = admission(merchant, Api.newKey(), newReference());
        List<Admitted> answers = batches.run(List.of(other, secondLiveAttempt));

        assertThat(answers).allMatch(a -> a instanceof Admitted.Alone);
        assertThat(paymentsFor(other, secondLiveAttempt)).isEmpty();
        assertThat(keyResource(merchant, other.ck().key())).isNull();
        assertThat(keyResource(merchant, secondLiveAttempt.ck().key())).isNull();
    }

    @Test
    void aLoneRequestRunsAtOnceInABatchOfOne() {
        MerchantId merchant = merchants.create("Batch " + newReference()).id();
        assertThat(batches.run(List.of(admission(merchant, Api.newKey(), newReference()))))
                .singleElement()
                .isInstanceOf(Admitted.Inserted.class);

        DistributionSummary sizes =
                meters.get("kopek.batch.size").tag("phase", "1").summary();
        long batchesBefore = sizes.count();
        double requestsBefore = sizes.totalAmount();
        assertThat(newMerchant()
                        .pay(Api.newKey(), Api.payment(newReference(), 1200, "EUR", "pm_ok"))
                        .status())
                .isEqualTo(201);
        assertThat(sizes.count() - batchesBefore).isEqualTo(1);
        assertThat(sizes.totalAmount() - requestsBefore).isEqualTo(1);
    }

    @Test
    void aRaceOfNewDuplicatedReusedAndConflictingRequestsChargesOncePerKey() throws Exception {
        SIMULATOR.configure(SimulatorConfig.defaults().withLatency(20, 20));
        MerchantId merchant = merchants.create("Batch " + newReference()).id();
        Api api = new Api(baseUri(), merchants.issueKey(merchant).secret());
        String replayedKey = Api.newKey();
        String replayedBody = Api.payment(newReference(), 700, "EUR", "pm_ok");
        String replayedId = api.pay(replayedKey, replayedBody).text("id");
        String duplicatedKey = Api.newKey();
        String duplicatedBody = Api.payment(newReference(), 800, "EUR", "pm_ok");
        String reusedKey = Api.newKey();
        List<String> reusedBodies = List.of(
                Api.payment(newReference(), 900, "EUR", "pm_ok"), Api.payment(newReference(), 901, "EUR", "pm_ok"));
        String contestedIntent = newReference();
        List<String> newKeys =
                IntStream.range(0, 16).mapToObj(i -> Api.newKey()).toList();
        List<String> newBodies = IntStream.range(0, 16)
                .mapToObj(i -> Api.payment(newReference(), 1000 + i, "EUR", "pm_ok"))
                .toList();
        long togetherBefore = batchesOfMoreThanOne();
        long submittedBefore = batches.submitted();

        List<Api.Response> answers;
        // Phase 1 locks the merchant's row FOR KEY SHARE: while this holds it FOR UPDATE, the lanes' first batches
        // wait in the database and every other request queues behind them (or, sharing a key or an intent with an
        // earlier request of its batch, waits alone), so at least one batch holds several requests.
        try (var threads = Executors.newVirtualThreadPerTaskExecutor();
                Connection holder = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            try (PreparedStatement lock = holder.prepareStatement("SELECT 1 FROM merchants WHERE id = ? FOR UPDATE")) {
                lock.setObject(1, merchant.value());
                lock.execute();
            }
            var racers = threads.submit(() -> Race.of(RACERS, i -> switch (i / 8) {
                case 0, 1 -> api.pay(newKeys.get(i), newBodies.get(i));
                case 2 -> api.pay(duplicatedKey, duplicatedBody);
                case 3 -> api.pay(reusedKey, reusedBodies.get(i % 2));
                case 4 -> api.pay(Api.newKey(), Api.payment(contestedIntent, 1100, "EUR", "pm_ok"));
                default -> api.pay(replayedKey, replayedBody);
            }));
            while (batches.submitted() - submittedBefore != RACERS && !racers.isDone()) {
                Thread.onSpinWait();
                Thread.yield();
            }
            holder.commit();
            answers = racers.get();
        }

        for (int i = 0; i < 16; i++) {
            assertThat(answers.get(i).status()).as("new key %d", i).isEqualTo(201);
            assertThat(chargesAtPsp(reference(newBodies.get(i)))).isEqualTo(1);
        }
        assertThat(chargesAtPsp(reference(duplicatedBody))).isEqualTo(1);
        List<Api.Response> duplicated = answers.subList(16, 24);
        assertThat(duplicated).allSatisfy(a -> assertThat(a.status()).isIn(201, 409));
        assertThat(duplicated.stream()
                        .filter(a -> a.status() == 201)
                        .map(a -> a.text("id"))
                        .distinct())
                .hasSizeLessThanOrEqualTo(1);
        long reusedCharges = reusedBodies.stream()
                .mapToLong(body -> chargesAtPsp(reference(body)))
                .sum();
        assertThat(reusedCharges).as("one key, two bodies: one payment").isEqualTo(1);
        assertThat(answers.subList(24, 32))
                .allSatisfy(a -> assertThat(a.status()).isIn(201, 409, 422));
        assertThat(chargesAtPsp(contestedIntent)).isEqualTo(1);
        assertThat(answers.subList(32, 40)).filteredOn(a -> a.status() == 201).hasSize(1);
        assertThat(answers.subList(32, 40))
                .filteredOn(a -> a.status() != 201)
                .allSatisfy(a -> assertThat(a.text("code")).isEqualTo("intent_has_live_attempt"));
        assertThat(answers.subList(40, 48)).allSatisfy(a -> {
            assertThat(a.status()).isEqualTo(201);
            assertThat(a.text("id")).isEqualTo(replayedId);
            assertThat(a.header("Idempotent-Replayed")).isNotNull();
        });
        assertThat(chargesAtPsp(reference(replayedBody))).isEqualTo(1);
        assertThat(batchesOfMoreThanOne() - togetherBefore)
                .as("requests released together met in one batch")
                .isPositive();
    }

    /** Batches so far that held more than one request, from the histogram's bucket of batches of one. */
    private long batchesOfMoreThanOne() {
        var snapshot =
                meters.get("kopek.batch.size").tag("phase", "1").summary().takeSnapshot();
        double ofOne = Arrays.stream(snapshot.histogramCounts())
                .filter(bucket -> bucket.bucket() == 1)
                .mapToDouble(bucket -> bucket.count())
                .sum();
        return snapshot.count() - (long) ofOne;
    }

    private Admission admission(MerchantId merchant, String key, String reference) {
        PaymentRequest request = new PaymentRequest(
                reference, new Money(1500, CurrencyCode.of("EUR")), "pm_ok", "automatic", null, null);
        return batches.admission(
                new ClientKey(merchant, PaymentService.OPERATION, key),
                Fingerprint.of(request.canonicalFields()),
                new PaymentId(TimeOrderedIds.next(clock())),
                merchant,
                request,
                key);
    }

    private Set<String> paymentsFor(Admission... admissions) {
        return Set.copyOf(jdbc.sql("SELECT reference FROM payments WHERE id IN (:ids)")
                .param("ids", ids(admissions))
                .query(String.class)
                .list());
    }

    private long createdEventsFor(Admission... admissions) {
        return jdbc.sql("SELECT count(*) FROM outbox WHERE event_type = 'payment.created' AND resource_id IN (:ids)")
                .param("ids", ids(admissions))
                .query(Long.class)
                .single();
    }

    private static List<UUID> ids(Admission... admissions) {
        return Arrays.stream(admissions).map(a -> a.pending().id().value()).toList();
    }

    private String keyResource(MerchantId merchant, String key) {
        return jdbc.sql("""
                SELECT resource_id::text FROM idempotency_keys
                 WHERE merchant_id = :merchant AND operation = :operation AND idempotency_key = :key
                """)
                .param("merchant", merchant.value())
                .param("operation", PaymentService.OPERATION)
                .param("key", key)
                .query(String.class)
                .optional()
                .orElse(null);
    }

    private static String reference(String body) {
        return body.substring(body.indexOf("\"reference\":\"") + 13, body.indexOf("\",\"amount\""));
    }
}

package dev.kopek.payments.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.console.ConsoleQueries;
import dev.kopek.console.HealthQueries;
import dev.kopek.money.PaymentId;
import dev.kopek.money.RefundId;
import dev.kopek.platform.InvariantCheck.Finding;
import dev.kopek.platform.InvariantCheck.Slice;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.ScannedOutcomes;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The unknown-outcome figures start from the unfinished keys: with an unknown payment, capture, void and refund made
 * by the simulator's faults (and a refund still pending), the Health page's counts and ages, the gauges and Needs
 * attention show exactly what the old statements, which read every payment and operation, show. What makes that
 * true, that every undecided attempt has an unfinished key, holds for all of them, and the audit finds an attempt
 * that breaks it: an unknown payment, and an unknown refund, whose key was completed behind Kopek's back.
 */
class UnknownOutcomesFromOpenKeysTest extends IntegrationTest {

    private static final List<String> KINDS = List.of("payment", "capture", "void", "refund");
    private static final int SLICE = 500;
    private static final int TRIES = 5;

    @Autowired
    private HealthQueries health;

    @Autowired
    private ConsoleQueries console;

    @Autowired
    private UndecidedAttemptsHaveOpenKeysCheck check;

    /** One undecided attempt of every kind, all of one merchant, by id. */
    private record Undecided(UUID merchant, Map<String, UUID> unknown, UUID pendingRefund) {}

    @Test
    void healthGaugesAndNeedsAttentionCountEveryKindAsTheWholeTablesDo() {
        Undecided made = undecidedOfEveryKind();

        for (String kind : KINDS) {
            sameAsTheWholeTable(kind);
        }
        for (String kind : KINDS) {
            String series = "kopek_operations_unknown\\{kind=\"" + kind + "\"}";
            stable(() -> gauge(scrape(), series), () -> (double) scanned(kind).count());
        }
        stable(() -> gauge(scrape(), "kopek_payments_unknown"), () ->
                (double) scanned("payment").count());

        List<Map<String, Object>> inFlight = stable(
                () -> console.inFlight(10_000),
                () -> jdbc.sql(ScannedOutcomes.IN_FLIGHT)
                        .param("limit", 10_000)
                        .query()
                        .listOfRows());
        List<Object> subjects =
                inFlight.stream().map(row -> row.get("subject_id")).toList();
        assertThat(subjects).containsAll(made.unknown().values()).contains(made.pendingRefund());
    }

    @Test
    void anUndecidedAttemptWhoseKeyWasCompletedIsFound() {
        Undecided made = undecidedOfEveryKind();
        assertThat(findings(made.merchant()))
                .as("an unknown of every kind and a pending refund, each with its unfinished key")
                .isEmpty();

        UUID payment = made.unknown().get("payment");
        UUID refund = made.unknown().get("refund");
        complete(payment, "payment.create");
        complete(refund, "refund.execute");
        try {
            assertThat(findings(made.merchant()))
                    .extracting(Finding::subject)
                    .containsExactlyInAnyOrder("payment " + payment, "refund " + refund);
            assertThat(findings(made.merchant()))
                    .allSatisfy(f -> assertThat(f.detail()).contains("is UNKNOWN since", "no unfinished key"));
        } finally {
            reopen(payment, "payment.create");
            reopen(refund, "refund.execute");
        }
        assertThat(findings(made.merchant())).isEmpty();
    }

    /**
     * An unknown payment (the PSP answered 5xx), capture, void and refund (a fault armed at the simulator for each),
     * and a refund accepted and not run yet (pending).
     */
    private Undecided undecidedOfEveryKind() {
        Api api = newMerchant();
        Api.Response unknown = api.pay(Api.newKey(), Api.payment(newReference(), 1_000, "EUR", "pm_5xx_no_charge"));
        assertThat(unknown.status()).as(unknown.body()).isEqualTo(202);
        UUID payment = PaymentId.parse(unknown.text("id")).orElseThrow().value();

        Api.Response captured = operated(api, manual(api), "capture", "/capture", "{\"amount\":2000}");
        Api.Response voided = operated(api, manual(api), "void", "/void", "{}");
        Api.Response refunded = operated(api, charged(api), "refund", "/refunds", "{\"amount\":500}");
        reconciler.reconcileOnce(); // runs the refund, as dispatch is off in tests: its PSP call fails unknown
        Api.Response pending =
                api.post("/v1/payments/" + charged(api).text("id") + "/refunds", Api.newKey(), "{\"amount\":300}");
        assertThat(pending.status()).as(pending.body()).isEqualTo(202);

        UUID merchant = jdbc.sql("SELECT merchant_id FROM payments WHERE id = :id")
                .param("id", payment)
                .query(UUID.class)
                .single();
        Map<String, UUID> unknowns = Map.of(
                "payment", payment,
                "capture", operation(captured, "capture"),
                "void", operation(voided, "void"),
                "refund", operation(refunded, "refund"));
        unknowns.forEach((kind, id) -> assertThat(status(id)).as(kind).isEqualTo("UNKNOWN"));
        UUID pendingRefund = operation(pending, "refund");
        assertThat(status(pendingRefund)).isEqualTo("PENDING");
        return new Undecided(merchant, unknowns, pendingRefund);
    }

    private static Api.Response manual(Api api) {
        Api.Response authorized = api.pay(
                Api.newKey(),
                Api.payment(newReference(), 2_000, "EUR", "pm_ok").replace("}", ",\"capture_method\":\"manual\"}"));
        assertThat(authorized.status()).as(authorized.body()).isEqualTo(201);
        return authorized;
    }

    private static Api.Response charged(Api api) {
        Api.Response paid = api.pay(Api.newKey(), Api.payment(newReference(), 2_000, "EUR", "pm_ok"));
        assertThat(paid.status()).as(paid.body()).isEqualTo(201);
        return paid;
    }

    /** The operation {@code kind} on {@code payment}, the PSP's answer to it spoilt after it happened. */
    private static Api.Response operated(Api api, Api.Response payment, String kind, String path, String body) {
        SIMULATOR.armFault(kind, payment.text("psp_reference"), "5xx_after_success", 1);
        Api.Response answer = api.post("/v1/payments/" + payment.text("id") + path, Api.newKey(), body);
        assertThat(answer.status()).as(answer.body()).isEqualTo(202);
        return answer;
    }

    /** The capture's or void's id (its 202 shows the payment), or the refund's (its 202 is the refund). */
    private UUID operation(Api.Response answer, String kind) {
        if (kind.equals("refund")) {
            return RefundId.parse(answer.text("id")).orElseThrow().value();
        }
        return jdbc.sql("SELECT id FROM payment_operations WHERE payment_id = :payment AND kind = :kind")
                .param(
                        "payment",
                        PaymentId.parse(answer.text("id")).orElseThrow().value())
                .param("kind", kind)
                .query(UUID.class)
                .single();
    }

    private String status(UUID id) {
        return jdbc.sql("""
                SELECT status FROM payments WHERE id = :id
                UNION ALL SELECT status FROM payment_operations WHERE id = :id
                """).param("id", id).query(String.class).single();
    }

    /**
     * Health's figure of one kind against the old statement's, read before and after it: equal when nothing moved
     * between the two reads (a notification of an earlier test may decide an attempt meanwhile: then read again).
     * The age is the clock's, so it lies between the ages of the oldest at the two reads.
     */
    private void sameAsTheWholeTable(String kind) {
        for (int i = 0; i < TRIES; i++) {
            Scanned before = scanned(kind);
            long from = clock.millis();
            HealthQueries.Unknowns shown = health.unknowns(kind);
            long to = clock.millis();
            if (before.equals(scanned(kind))) {
                assertThat(shown.count()).as(kind).isEqualTo(before.count()).isPositive();
                // In seconds, divided as Health divides: seconds times 1,000 is not always the milliseconds back.
                long oldest = before.oldest().toInstant().toEpochMilli();
                assertThat(shown.oldestAgeSeconds())
                        .as(kind)
                        .isBetween((from - oldest) / 1000.0, (to - oldest) / 1000.0);
                return;
            }
        }
        throw new AssertionError("the unknown " + kind + "s kept changing over " + TRIES + " reads");
    }

    private record Scanned(long count, OffsetDateTime oldest) {}

    private Scanned scanned(String kind) {
        return jdbc.sql(ScannedOutcomes.UNKNOWN_OLDEST.get(kind))
                .query((rs, n) -> new Scanned(rs.getLong("n"), rs.getObject("oldest", OffsetDateTime.class)))
                .single();
    }

    /** {@code shown}'s answer, equal to the old statement's when that answered the same before and after it. */
    private static <T> T stable(Supplier<T> shown, Supplier<T> scanned) {
        for (int i = 0; i < TRIES; i++) {
            T before = scanned.get();
            T answer = shown.get();
            if (before.equals(scanned.get())) {
                assertThat(answer).isEqualTo(before);
                return answer;
            }
        }
        throw new AssertionError("the old statement's answer kept changing over " + TRIES + " reads");
    }

    private String scrape() {
        return admin().get("/actuator/prometheus").body();
    }

    private static double gauge(String scrape, String series) {
        Matcher sample = Pattern.compile("(?m)^" + series + " (\\S+)$").matcher(scrape);
        assertThat(sample.find()).as(series).isTrue();
        return Double.parseDouble(sample.group(1));
    }

    /** Every finding of one whole pass of the check that is about {@code merchant}. */
    private List<Finding> findings(UUID merchant) {
        List<Finding> found = new ArrayList<>();
        String after = null;
        Slice slice;
        do {
            slice = check.check(after, SLICE);
            slice.findings().stream().filter(f -> merchant.equals(f.merchant())).forEach(found::add);
            after = slice.last();
        } while (!slice.endsPass(SLICE));
        return found;
    }

    /** The key completed with the attempt left undecided, as only a bypass of Kopek could. */
    private void complete(UUID resource, String keySpace) {
        assertThat(jdbc.sql("""
                        UPDATE idempotency_keys SET status = 'COMPLETED', response_code = 200, response_body = '{}'
                         WHERE resource_id = :resource AND operation = :space
                           AND status IN ('IN_PROGRESS', 'AWAITING_RESULT')
                        """)
                        .param("resource", resource)
                        .param("space", keySpace)
                        .update())
                .isEqualTo(1);
    }

    private void reopen(UUID resource, String keySpace) {
        jdbc.sql("""
                        UPDATE idempotency_keys SET status = 'AWAITING_RESULT', response_code = NULL, response_body = NULL
                         WHERE resource_id = :resource AND operation = :space
                        """).param("resource", resource).param("space", keySpace).update();
    }
}

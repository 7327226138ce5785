package dev.kopek.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.money.PaymentId;
import dev.kopek.support.Api;
import dev.kopek.support.Race;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The seed's refund race and its generalisation: refunds never exceed what was captured. */
class RefundRaceTest extends LifecycleSupport {

    @Test
    void twoConcurrentRefundsOfSixtyThousandOnAHundredThousandAcceptOne() throws Exception {
        Api api = newMerchant();
        var paid = charge(api, newReference(), 100_000);
        String id = paid.get("id").asString();

        List<Api.Response> answers = Race.of(2, i -> refund(api, id, 60_000));
        reconciler.reconcileOnce();

        assertThat(answers).filteredOn(a -> a.status() == 202).hasSize(1);
        assertThat(answers)
                .filteredOn(a -> a.status() == 409)
                .singleElement()
                .satisfies(a -> assertThat(a.text("code")).isEqualTo("amount_exceeds_refundable"));
        var after = payment(api, id);
        assertThat(amount(after, "amount_refunded")).isEqualTo(60_000);
        assertThat(after.get("status").asString()).isEqualTo("partially_refunded");
        assertThat(refundsAtPsp(paid.get("psp_reference").asString())).isEqualTo(1);
        assertThat(refundedAtPsp(paid.get("psp_reference").asString())).isEqualTo(60_000);
    }

    @Test
    void stormOfFiftyRandomRefundsNeverExceedsTheCaptureAndMatchesThePsp() throws Exception {
        Api api = newMerchant();
        var paid = charge(api, newReference(), 100_000);
        String id = paid.get("id").asString();
        long seed = System.nanoTime();
        Random random = new Random(seed);
        long[] amounts = random.longs(50, 1, 10_000).toArray();

        List<Api.Response> answers = Race.of(50, i -> refund(api, id, amounts[i]));
        while (reconciler.reconcileOnce() > 0) {
            // drain every accepted refund through the PSP
        }

        long accepted = 0;
        for (int i = 0; i < answers.size(); i++) {
            if (answers.get(i).status() == 202) {
                accepted += amounts[i];
            } else {
                assertThat(answers.get(i).text("code")).as("seed %d", seed).isEqualTo("amount_exceeds_refundable");
            }
        }
        var after = payment(api, id);
        assertThat(accepted).as("seed %d", seed).isLessThanOrEqualTo(100_000);
        assertThat(amount(after, "amount_refunded")).as("seed %d", seed).isEqualTo(accepted);
        assertThat(refundedAtPsp(paid.get("psp_reference").asString()))
                .as("seed %d", seed)
                .isEqualTo(accepted);
    }

    /**
     * Twenty requests with one key, released together (issue 25): one statement claims the key and stores the 202,
     * the others fail on the key or find it, and replay that 202. One refund reaches the PSP, one reservation is
     * posted, one {@code refund.pending} is announced.
     */
    @Test
    void twentyRequestsWithOneKeyRefundOnceAndAllAnswerTheSameRefund() throws Exception {
        Api api = newMerchant();
        var paid = charge(api, newReference(), 100_000);
        String id = paid.get("id").asString();
        String key = Api.newKey();

        List<Api.Response> answers =
                Race.of(20, i -> api.post("/v1/payments/" + id + "/refunds", key, "{\"amount\":30000}"));
        while (reconciler.reconcileOnce() > 0) {
            // drain the accepted refund through the PSP
        }

        assertThat(answers).allSatisfy(a -> assertThat(a.status()).isIn(202, 409));
        List<String> refunds = answers.stream()
                .filter(a -> a.status() == 202)
                .map(a -> a.text("id"))
                .distinct()
                .toList();
        assertThat(refunds).hasSize(1);
        assertThat(answers)
                .filteredOn(a -> a.status() == 409)
                .allSatisfy(a -> assertThat(a.text("code")).isEqualTo("request_in_progress"));
        assertThat(refundsAtPsp(paid.get("psp_reference").asString())).isEqualTo(1);
        assertThat(refundedAtPsp(paid.get("psp_reference").asString())).isEqualTo(30_000);
        assertThat(amount(payment(api, id), "amount_refunded")).isEqualTo(30_000);
        assertThat(reservationsPosted(id)).isEqualTo(1);
        assertThat(pendingAnnounced(id)).isEqualTo(1);
    }

    /**
     * Twenty refunds of 7,000 with twenty keys on a capture of 100,000, released together: the reservation's
     * condition lets exactly fourteen through, and the PSP sees exactly those.
     */
    @Test
    void twentyRefundsWithTwentyKeysBeyondTheCaptureAcceptExactlyWhatFits() throws Exception {
        Api api = newMerchant();
        var paid = charge(api, newReference(), 100_000);
        String id = paid.get("id").asString();

        List<Api.Response> answers = Race.of(20, i -> refund(api, id, 7_000));
        while (reconciler.reconcileOnce() > 0) {
            // drain every accepted refund through the PSP
        }

        assertThat(answers).filteredOn(a -> a.status() == 202).hasSize(14);
        assertThat(answers)
                .filteredOn(a -> a.status() != 202)
                .hasSize(6)
                .allSatisfy(a -> assertThat(a.text("code")).isEqualTo("amount_exceeds_refundable"));
        assertThat(refundsAtPsp(paid.get("psp_reference").asString())).isEqualTo(14);
        assertThat(refundedAtPsp(paid.get("psp_reference").asString())).isEqualTo(98_000);
        assertThat(amount(payment(api, id), "amount_refunded")).isEqualTo(98_000);
        assertThat(reservationsPosted(id)).isEqualTo(14);
        assertThat(pendingAnnounced(id)).isEqualTo(14);
    }

    private long reservationsPosted(String paymentId) {
        return jdbc.sql(
                        "SELECT count(*) FROM ledger_transactions WHERE payment_id = :payment AND kind = 'REFUND_RESERVED'")
                .param("payment", PaymentId.parse(paymentId).orElseThrow().value())
                .query(Long.class)
                .single();
    }

    private long pendingAnnounced(String paymentId) {
        return jdbc.sql("""
                SELECT count(*) FROM outbox o JOIN payment_operations r ON r.id = o.resource_id
                 WHERE r.payment_id = :payment AND o.event_type = 'refund.pending'
                """)
                .param("payment", PaymentId.parse(paymentId).orElseThrow().value())
                .query(Long.class)
                .single();
    }
}

package dev.kopek.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

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
}

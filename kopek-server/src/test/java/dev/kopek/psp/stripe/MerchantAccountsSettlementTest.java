package dev.kopek.psp.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Api;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Issue 15: the reconciliation run settles each merchant's own Stripe account too, from that account's balance
 * transactions, matched only against that account's payments. Two merchants on two Stripe accounts of one stub: each
 * account's file holds its own payment (no break), and a PaymentIntent of the other account listed in one account's
 * file is a break of that account (Kopek holds it, but not there), never matched to the other merchant's payment.
 */
class MerchantAccountsSettlementTest extends MerchantsOnStripe {

    private static final String FIRST_ACCOUNT = "sk_test_kopek_stub_first_account";
    private static final String SECOND_ACCOUNT = "sk_test_kopek_stub_second_account";
    private static final String LOST_ANSWER_ACCOUNT = "sk_test_kopek_stub_lost_answer_account";

    @Test
    void eachMerchantsOwnStripeAccountIsReconciledAgainstItsOwnPaymentsOnly() {
        // Stripe's movements a day back, so their day is closed without moving Kopek's clock, which the other tests
        // of this context sign their events with.
        STRIPE_TIME.advance(Duration.ofDays(-1));
        try {
            reconcileTwoAccounts();
        } finally {
            STRIPE_TIME.advance(Duration.ofDays(1));
        }
    }

    private void reconcileTwoAccounts() {
        // Two accounts of their own (the stub's first account is shared by the other tests' merchants).
        STRIPE.addAccount(FIRST_ACCOUNT).addAccount(SECOND_ACCOUNT);
        Merchant first = onAccount(FIRST_ACCOUNT);
        Merchant second = onAccount(SECOND_ACCOUNT);
        String firstIntent = captured(first, 1_000);
        String secondIntent = captured(second, 2_000);
        String alsoSecond = captured(second, 2_500);
        // The first account's file names one of the second account's PaymentIntents.
        STRIPE.alsoSettleIn(FIRST_ACCOUNT, alsoSecond);
        LocalDate day = LocalDate.ofInstant(STRIPE_TIME.instant(), ZoneOffset.UTC);
        assertThat(day).as("closed on Kopek's clock").isBefore(LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC));

        Api.Response ran = admin().post("/v1/ops/settlements/runs", null, "{\"date\":\"" + day + "\"}");

        assertThat(ran.status()).as(ran.body()).isEqualTo(200);
        JsonNode firstRun = account(ran.json(), "stripe:" + first.id());
        JsonNode secondRun = account(ran.json(), "stripe:" + second.id());
        assertThat(firstRun.get("unavailable").isNull()).as(firstRun.toString()).isTrue();
        assertThat(secondRun.get("unavailable").isNull())
                .as(secondRun.toString())
                .isTrue();
        assertThat(firstRun.get("passes")).hasSize(2);
        assertThat(secondRun.get("passes").get(1).get("file").get("rows").asInt())
                .as("the second account's file: its two charges and their fees")
                .isEqualTo(4);

        assertThat(breaks("stripe:" + first.id(), day))
                .as("the other account's PaymentIntent is not this" + " account's money, though Kopek holds it")
                .containsExactly(alsoSecond + " MISSING_INTERNAL");
        assertThat(breaks("stripe:" + second.id(), day))
                .as("each of its payments is in its own file")
                .isEmpty();
        assertThat(jdbc.sql("""
                SELECT count(*) FROM recon_breaks WHERE provider NOT LIKE 'stripe:%' AND psp_reference IN (:refs)
                """)
                        .param("refs", List.of(firstIntent, secondIntent, alsoSecond))
                        .query(Long.class)
                        .single())
                .as("nor are they breaks of Kopek's configured PSP")
                .isZero();
    }

    /**
     * A charge whose answer was lost at a merchant's own account is in that account's file before Kopek knows its
     * PaymentIntent: the break is attributed through that account (its adapter names the provider key) and the
     * payment is settled by the fenced take-over, charged once.
     */
    @Test
    void aLostAnswerAtAMerchantsOwnAccountIsSettledFromThatAccountsFile() {
        STRIPE_TIME.advance(Duration.ofDays(-1));
        try {
            settleTheLostAnswer();
        } finally {
            STRIPE_TIME.advance(Duration.ofDays(1));
        }
    }

    private void settleTheLostAnswer() {
        STRIPE.addAccount(LOST_ANSWER_ACCOUNT);
        Merchant merchant = onAccount(LOST_ANSWER_ACCOUNT);
        String reference = newReference();
        Api.Response processing =
                merchant.api().pay(Api.newKey(), payment(reference, 1_700, StripeStub.HELD_AFTER_CHARGE, "automatic"));
        STRIPE.releaseHeld();
        assertThat(processing.status()).isEqualTo(202);
        String intent = intentOf(reference).path("id").asString();
        LocalDate day = LocalDate.ofInstant(STRIPE_TIME.instant(), ZoneOffset.UTC);
        // Past the unknown's grace, so the resolver may take it over.
        clock.advance(Duration.ofMinutes(2));
        STRIPE_TIME.advance(Duration.ofMinutes(2));

        Api.Response ran = admin().post("/v1/ops/settlements/runs", null, "{\"date\":\"" + day + "\"}");

        assertThat(ran.status()).as(ran.body()).isEqualTo(200);
        JsonNode after =
                merchant.api().get("/v1/payments/" + processing.text("id")).json();
        assertThat(after.get("status").asString()).isEqualTo("captured");
        assertThat(after.get("psp_reference").asString()).isEqualTo(intent);
        assertThat(STRIPE.chargedIntents(reference)).isEqualTo(1);
        assertThat(jdbc.sql("""
                SELECT status FROM recon_breaks WHERE provider = :provider AND psp_reference = :intent
                """)
                        .param("provider", "stripe:" + merchant.id())
                        .param("intent", intent)
                        .query(String.class)
                        .list())
                .as("found missing, then resolved by the take-over")
                .containsExactly("RESOLVED");
    }

    private String captured(Merchant merchant, long amount) {
        Api.Response paid =
                merchant.api().pay(Api.newKey(), payment(newReference(), amount, StripeStub.OK, "automatic"));
        assertThat(paid.status()).as(paid.body()).isEqualTo(201);
        return paid.text("psp_reference");
    }

    private static JsonNode account(JsonNode run, String provider) {
        return StreamSupport.stream(run.get("accounts").spliterator(), false)
                .filter(a -> a.get("provider").asString().equals(provider))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no account " + provider + " in " + run));
    }

    /** Open breaks of one account on the date, as "reference TYPE". */
    private List<String> breaks(String provider, LocalDate day) {
        return jdbc.sql("""
                SELECT psp_reference || ' ' || type FROM recon_breaks
                 WHERE provider = :provider AND settlement_date = :day AND status IN ('CANDIDATE', 'REPORTED')
                """)
                .param("provider", provider)
                .param("day", day)
                .query(String.class)
                .list();
    }
}

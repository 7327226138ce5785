package dev.kopek.psp.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Api;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 24, defect 4: a Stripe account that settles in USD takes a EUR payment. Its balance transactions are in USD;
 * Kopek matches the charge and the refund on their EUR amounts (the source objects'), keeps the USD amounts and
 * Stripe's rate beside them, and reports no break after the two passes of the day.
 */
class CrossCurrencySettlementTest extends MerchantsOnStripe {

    private static final String USD_ACCOUNT = "sk_test_kopek_stub_usd_settling_account";

    @Test
    void aEuroChargeSettledInDollarsIsMatchedOnItsEuroAmountAndKeepsWhatWasSettled() {
        // Stripe's movements a day back, so their day is closed without moving Kopek's clock.
        STRIPE_TIME.advance(Duration.ofDays(-1));
        try {
            settleInDollars();
        } finally {
            STRIPE_TIME.advance(Duration.ofDays(1));
        }
    }

    private void settleInDollars() {
        STRIPE.addAccount(USD_ACCOUNT).settleIn(USD_ACCOUNT, "usd", "1.0865");
        Merchant merchant = onAccount(USD_ACCOUNT);
        Api.Response paid =
                merchant.api().pay(Api.newKey(), payment(newReference(), 10_000, StripeStub.OK, "automatic"));
        assertThat(paid.status()).as(paid.body()).isEqualTo(201);
        String intent = paid.text("psp_reference");
        Api.Response refunded =
                merchant.api().post("/v1/payments/" + paid.text("id") + "/refunds", Api.newKey(), "{\"amount\":2500}");
        assertThat(refunded.status()).as(refunded.body()).isEqualTo(202);
        reconciler.reconcileOnce(); // runs the refund: tests start no refund dispatcher
        LocalDate day = LocalDate.ofInstant(STRIPE_TIME.instant(), ZoneOffset.UTC);

        Api.Response ran = admin().post("/v1/ops/settlements/runs", null, "{\"date\":\"" + day + "\"}");

        assertThat(ran.status()).as(ran.body()).isEqualTo(200);
        assertThat(jdbc.sql("""
                        SELECT psp_reference || ' ' || type FROM recon_breaks
                         WHERE provider = :provider AND settlement_date = :day AND status IN ('CANDIDATE', 'REPORTED')
                        """)
                        .param("provider", "stripe:" + merchant.id())
                        .param("day", day)
                        .query(String.class)
                        .list())
                .as("the charge and the refund match on what the customer was charged and refunded, in EUR")
                .isEmpty();
        List<Map<String, Object>> rows = jdbc.sql("""
                SELECT r.type, r.amount, r.currency, r.settled_amount, r.settled_currency, r.exchange_rate
                  FROM settlement_rows r
                  JOIN settlement_files f ON f.id = r.file_id
                 WHERE f.provider = :provider AND f.settlement_date = :day AND r.type IN ('charge', 'refund')
                   AND f.version = (SELECT max(version) FROM settlement_files
                                     WHERE provider = :provider AND settlement_date = :day)
                 ORDER BY r.type
                """)
                .param("provider", "stripe:" + merchant.id())
                .param("day", day)
                .query()
                .listOfRows();
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0))
                .containsEntry("type", "charge")
                .containsEntry("amount", 10_000L)
                .containsEntry("currency", "EUR")
                .containsEntry("settled_amount", 10_865L)
                .containsEntry("settled_currency", "USD");
        assertThat((BigDecimal) rows.get(0).get("exchange_rate")).isEqualByComparingTo("1.0865");
        assertThat(rows.get(1))
                .containsEntry("type", "refund")
                .containsEntry("amount", 2_500L)
                .containsEntry("currency", "EUR")
                .containsEntry("settled_amount", 2_716L)
                .containsEntry("settled_currency", "USD");
        assertThat(STRIPE.received(intent)).as("charged once, at Stripe").isEqualTo(10_000);
        assertThat(STRIPE.refunded(intent)).isEqualTo(2_500);
    }
}

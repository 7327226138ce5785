package dev.kopek.reconciliation.settlement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Api;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Chargebacks and their reversals match Kopek's disputes; one Kopek never heard of is money missing internally. */
class SettlementDisputeTest extends SettlementSupport {

    @Test
    void wonDisputeMatchesBothItsMovementsAndAnUnknownChargebackIsMissingInternally() throws Exception {
        LocalDate day = freshDay();
        SIMULATOR.configure(SIMULATOR
                .config()
                .withWebhooks(SIMULATOR.config().webhooks().withUrl(baseUri().resolve("/v1/psp/simulator/webhooks"))));
        Api api = newMerchant();
        String disputed = charge(pay(api, 8_000, "pm_ok"));
        String unheardOf = charge(pay(api, 5_000, "pm_ok"));
        awaitDelivered(2);
        String won = SIMULATOR.openDispute(disputed, 3_000L, "product_not_received");
        awaitDelivered(3);
        SIMULATOR.resolveDispute(won, true);
        awaitDelivered(4);
        SIMULATOR.configure(
                SIMULATOR.config().withWebhooks(SIMULATOR.config().webhooks().withUrl(null)));
        String silent = SIMULATOR.openDispute(unheardOf, null, "fraudulent");
        assertThat(List.of(settlementDateOf(won), settlementDateOf(silent))).containsOnly(day);

        moveToDayAfter(day);
        JsonNode pass = passOf(runOk(day), day);

        assertThat(pass.get("breaks_seen").asInt()).isEqualTo(1);
        JsonNode unknown = only(breaksOf(day, "open"), silent);
        assertThat(unknown.get("type").asString()).isEqualTo("missing_internal");
        assertThat(unknown.get("movement").asString()).isEqualTo("chargeback");
        assertThat(unknown.get("psp").get("amount").asLong()).isEqualTo(5_000);
    }

    private static void awaitDelivered(int events) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (SIMULATOR.webhookDeliveries().stream().filter(d -> d.delivered()).count() < events
                && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(SIMULATOR.webhookDeliveries().stream()
                        .filter(d -> d.delivered())
                        .count())
                .isEqualTo(events);
    }
}

package dev.kopek.reconciliation.settlement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.simulator.SettlementDiscrepancies;
import dev.kopek.support.Api;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

/**
 * Issue 15: the configured PSP's settlement file is matched only against money that went through Kopek's configured
 * account. A payment held in a merchant's own PSP account (payments.psp_account) is never in that file, so its absence
 * there is not a break; the same absence of a payment sent through the configured account is.
 */
class SettlementAccountsTest extends SettlementSupport {

    @Test
    void aPaymentHeldInAMerchantsOwnAccountIsNotABreakOfTheConfiguredPspsFile() {
        LocalDate day = freshDay();
        Api api = newMerchant();
        String ownAccount = charge(pay(api, 1_100, "pm_ok"));
        String configured = charge(pay(api, 1_200, "pm_ok"));
        // As if sent through the merchant's own Stripe account: that account's settlement, not this file, holds it.
        jdbc.sql("UPDATE payments SET psp_account = 'stripe' WHERE psp_reference = :r")
                .param("r", ownAccount)
                .update();
        SIMULATOR.addSettlementDiscrepancies(
                day, SettlementDiscrepancies.none().withMissing(ownAccount).withMissing(configured));

        moveToDayAfter(day);
        runOk(day);

        assertThat(references(breaksOf(day, "open"))).contains(configured).doesNotContain(ownAccount);
    }
}

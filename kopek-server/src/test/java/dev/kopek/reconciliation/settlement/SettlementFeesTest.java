package dev.kopek.reconciliation.settlement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.simulator.SettlementDiscrepancies;
import dev.kopek.simulator.SettlementRow;
import dev.kopek.support.Api;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The fee rows of the PSP's settlement file are money that moved (issue 10, defect 7): each is journaled once, as
 * Kopek's cost (PSP_FEES against PSP_RECEIVABLE, no merchant), and a corrected file posts only its correction.
 */
class SettlementFeesTest extends SettlementSupport {

    @Test
    void feesInTheSettlementFileAreJournaledOnceAndACorrectedVersionPostsOnlyTheDifference() {
        SIMULATOR.configure(SIMULATOR.config().withFeeBps(290));
        LocalDate day = freshDay();
        Api api = newMerchant();
        JsonNode firstPayment = pay(api, 10_000, "pm_ok");
        String first = charge(firstPayment);
        String second = charge(pay(api, 6_001, "pm_ok"));
        assertThat(settlementDateOf(first)).isEqualTo(day);
        moveToDayAfter(day);

        runOk(day);
        assertThat(feePostings(day))
                .containsExactlyInAnyOrder(Map.entry("PSP_FEE_CHARGED", 290L), Map.entry("PSP_FEE_CHARGED", 174L));
        runOk(day);
        assertThat(feePostings(day)).as("a re-run posts nothing again").hasSize(2);

        String stranger = Api.unique("ch_unknown");
        SIMULATOR.addSettlementDiscrepancies(
                day,
                SettlementDiscrepancies.none()
                        .withMissing(first)
                        .withExtra(new SettlementRow(second, "fee", 6, "EUR", day))
                        .withExtra(new SettlementRow(stranger, "fee", 25, "EUR", day)));
        runOk(day);
        runOk(day);
        assertThat(feePostings(day))
                .containsExactlyInAnyOrder(
                        Map.entry("PSP_FEE_CHARGED", 290L),
                        Map.entry("PSP_FEE_CHARGED", 174L),
                        Map.entry("PSP_FEE_RETURNED", 290L),
                        Map.entry("PSP_FEE_CHARGED", 6L),
                        Map.entry("PSP_FEE_CHARGED", 25L));
        assertThat(netPspFees(day)).isEqualTo(174 + 6 + 25);
        assertThat(jdbc.sql("""
                SELECT count(*) FROM ledger_transactions
                 WHERE kind LIKE 'PSP_FEE%' AND occurred_at = :at AND (merchant_id IS NOT NULL OR payment_id IS NULL)
                """).param("at", dayStart(day)).query(Long.class).single())
                .as("no merchant on a PSP fee; only the stranger's fee has no payment")
                .isEqualTo(1);

        Api.Response ledger = api.get("/v1/ledger/transactions?limit=100");
        assertThat(ledger.status()).as(ledger.body()).isEqualTo(200);
        assertThat(ledger.body())
                .as("Kopek's PSP cost is not in the merchant's ledger")
                .doesNotContain("psp_fee");
        assertThat(firstPayment.get("id").asString()).startsWith("pay_");
    }

    /** (kind, amount) of the PSP fee postings whose value date is the day. */
    private List<Map.Entry<String, Long>> feePostings(LocalDate day) {
        return jdbc.sql("""
                SELECT kind, amount_minor FROM ledger_transactions WHERE kind LIKE 'PSP_FEE%' AND occurred_at = :at
                """)
                .param("at", dayStart(day))
                .query((rs, n) -> Map.entry(rs.getString("kind"), rs.getLong("amount_minor")))
                .list();
    }

    /** The day's PSP fees as the PSP_FEES account holds them, debit less credit, checked against the receivable. */
    private long netPspFees(LocalDate day) {
        Map<String, Long> net = jdbc
                .sql("""
                SELECT a.type, sum(CASE e.side WHEN 'debit' THEN e.amount_minor ELSE -e.amount_minor END) AS net
                  FROM ledger_transactions t
                  JOIN ledger_entries e ON e.transaction_id = t.id
                  JOIN ledger_accounts a ON a.id = e.account_id
                 WHERE t.kind LIKE 'PSP_FEE%' AND t.occurred_at = :at
                 GROUP BY a.type
                """)
                .param("at", dayStart(day))
                .query((rs, n) -> Map.entry(rs.getString("type"), rs.getLong("net")))
                .list()
                .stream()
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        assertThat(net.keySet()).containsExactlyInAnyOrder("PSP_FEES", "PSP_RECEIVABLE");
        assertThat(net.get("PSP_RECEIVABLE")).isEqualTo(-net.get("PSP_FEES"));
        return net.get("PSP_FEES");
    }

    private static OffsetDateTime dayStart(LocalDate day) {
        return day.atStartOfDay().atOffset(ZoneOffset.UTC);
    }
}

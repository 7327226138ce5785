package dev.kopek.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.events.MoneyMovement.Kind;
import dev.kopek.ledger.domain.AccountType;
import dev.kopek.money.MerchantId;
import dev.kopek.support.Api;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** A balance that no longer equals its entries is found, logged and counted; the projection heals back to clean. */
@ExtendWith(OutputCaptureExtension.class)
class LedgerDriftTest extends LedgerTestSupport {

    @Autowired
    private MeterRegistry meters;

    @Test
    void driftInjectedWithPlainSqlIsReportedAsMetricAndLogLine(CapturedOutput output) throws SQLException {
        MerchantId merchant = newMerchantId();
        long account = capturedAndProjected(merchant, 5_000);
        assertThat(driftChecker.check().drifts()).noneMatch(d -> d.accountId() == account);
        double detectedBefore = meters.counter("kopek.ledger.drift.detected").count();

        // The guard refuses a shrinking balance; a superuser can switch triggers off, as a broken migration might.
        tamper("UPDATE ledger_balances SET credit_minor = credit_minor - 1 WHERE account_id = " + account);
        DriftReport report = driftChecker.check();

        assertThat(report.drifts())
                .filteredOn(d -> d.accountId() == account)
                .singleElement()
                .satisfies(d -> {
                    assertThat(d.merchant()).isEqualTo(merchant.value());
                    assertThat(d.type()).isEqualTo("merchant_payable");
                    assertThat(d.projectedCreditsMinor()).isEqualTo(4_999);
                    assertThat(d.entryCreditsMinor()).isEqualTo(5_000);
                });
        assertThat(meters.get("kopek.ledger.drift.accounts").gauge().value()).isGreaterThanOrEqualTo(1.0);
        assertThat(meters.counter("kopek.ledger.drift.detected").count()).isGreaterThan(detectedBefore);
        assertThat(output).contains("ledger drift: account=" + account + " type=merchant_payable");

        tamper("UPDATE ledger_balances SET credit_minor = credit_minor + 1 WHERE account_id = " + account);
        assertThat(driftChecker.check().drifts()).noneMatch(d -> d.accountId() == account);
    }

    /**
     * Issue 24, defect 7: the drift check's repair. A balance short of its entries (a posting the projection missed) is
     * topped up by the audited ops action; a balance above its entries is refused, and nothing changes.
     */
    @Test
    void aBalanceShortOfItsEntriesIsRepairedByTheAuditedOpsActionAndOneAboveThemIsRefused() throws SQLException {
        MerchantId merchant = newMerchantId();
        long account = capturedAndProjected(merchant, 6_000);

        tamper("UPDATE ledger_balances SET credit_minor = credit_minor + 1 WHERE account_id = " + account);
        Api.Response refused = admin().post("/v1/ops/ledger/projection/repair", null, "");
        assertThat(refused.status()).as(refused.body()).isEqualTo(409);
        assertThat(refused.text("code")).isEqualTo("ledger_repair_refused");
        assertThat(projectedBalance(merchant, AccountType.MERCHANT_PAYABLE, "EUR"))
                .as("nothing changed")
                .isEqualTo(6_001);

        tamper("UPDATE ledger_balances SET credit_minor = credit_minor - 2 WHERE account_id = " + account);
        assertThat(driftChecker.check().drifts()).anyMatch(d -> d.accountId() == account);
        Api.Response repaired = admin().post("/v1/ops/ledger/projection/repair", null, "");

        assertThat(repaired.status()).as(repaired.body()).isEqualTo(200);
        assertThat(repaired.json().get("repaired").toString())
                .contains("\"account_id\":" + account + ",\"added_debits\":0,\"added_credits\":1");
        assertThat(driftChecker.check().drifts()).noneMatch(d -> d.accountId() == account);
        assertThat(balance(merchant, AccountType.MERCHANT_PAYABLE, "EUR")).isEqualTo(6_000);
        assertThat(jdbc.sql("SELECT count(*) FROM audit_events WHERE action = 'ledger.projection_repaired'")
                        .query(Long.class)
                        .single())
                .as("audited")
                .isPositive();
    }

    /** A capture of {@code amount} for the merchant, projected; its merchant-payable account. */
    private long capturedAndProjected(MerchantId merchant, long amount) {
        UUID payment = newId();
        publish(movement(Kind.CAPTURED, merchant, payment, payment, amount, "EUR"));
        long account = journalOf(merchant, payment).getFirst().entries().stream()
                .filter(e -> e.account() == AccountType.MERCHANT_PAYABLE)
                .findFirst()
                .orElseThrow()
                .accountId();
        projectAll();
        return account;
    }

    private void tamper(String sql) throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.execute("SET LOCAL session_replication_role = replica");
            s.execute(sql);
            c.commit();
        }
    }
}

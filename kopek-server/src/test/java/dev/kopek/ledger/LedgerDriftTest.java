package dev.kopek.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.events.MoneyMovement.Kind;
import dev.kopek.ledger.domain.AccountType;
import dev.kopek.money.MerchantId;
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
        UUID payment = newId();
        publish(movement(Kind.CAPTURED, merchant, payment, payment, 5_000, "EUR"));
        long account = journalOf(merchant, payment).getFirst().entries().stream()
                .filter(e -> e.account() == AccountType.MERCHANT_PAYABLE)
                .findFirst()
                .orElseThrow()
                .accountId();
        projectAll();
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

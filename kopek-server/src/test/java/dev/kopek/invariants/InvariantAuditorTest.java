package dev.kopek.invariants;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.KopekApplication;
import dev.kopek.ledger.LedgerProjector;
import dev.kopek.merchants.Merchants;
import dev.kopek.support.Api;
import dev.kopek.support.ConsoleSession;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.LedgerProjection;
import dev.kopek.support.Promtool;
import dev.kopek.support.TestDatabase;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The production audit on a database of its own (issue 26 §2): real payments, captures, refunds and an unknown outcome
 * leave every check at zero; then four violations are planted the way only a bypass could make them — a journal
 * entry changed with the triggers off, an event deleted, a chargeback over a refunded capture without its exposure
 * item, the unknown payment's key completed — and each is
 * found by its check, counted in {@code kopek_audit_violations}, logged at ERROR with its ids, queued for review,
 * listed by {@code GET /v1/ops/invariants} and the console's Invariants page, and fires the alert under promtool.
 * Repaired, it is cleared by the next whole pass.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = {KopekApplication.class, IntegrationTest.TestBeans.class})
class InvariantAuditorTest {

    private static final String OWN = TestDatabase.newDatabase();

    @DynamicPropertySource
    static void ownDatabase(DynamicPropertyRegistry registry) {
        IntegrationTest.commonProperties(registry, OWN);
        // Small slices, so that a pass over this test's rows takes several and the cursors really move.
        registry.add("kopek.invariants.slice-size", () -> "7");
    }

    @LocalServerPort
    private int port;

    @Autowired
    private Merchants merchants;

    @Autowired
    private JdbcClient jdbc;

    @Autowired
    private InvariantAuditor auditor;

    @Autowired
    private DataSource dataSource;

    @Autowired
    private LedgerProjector projector;

    @Test
    void plantedViolationsAreFoundCountedAlertedQueuedAndShown(CapturedOutput output) throws Exception {
        var early = merchants.create("Audited early " + UUID.randomUUID());
        Api earlyShop = new Api(baseUri(), merchants.issueKey(early.id()).secret());
        String first = charge(earlyShop, 700);
        var merchant = merchants.create("Audited " + UUID.randomUUID());
        Api shop = new Api(baseUri(), merchants.issueKey(merchant.id()).secret());
        for (int i = 0; i < 12; i++) {
            shop.pay(Api.newKey(), Api.payment(newReference(), 1_000 + i, "EUR", "pm_ok"));
        }
        String refunded = charge(shop, 5_000);
        assertThat(shop.post("/v1/payments/" + refunded + "/refunds", Api.newKey(), "{\"amount\":3000}")
                        .status())
                .isEqualTo(202);
        Api.Response unknown = shop.pay(Api.newKey(), Api.payment(newReference(), 900, "EUR", "pm_5xx_no_charge"));
        assertThat(unknown.status()).isEqualTo(202);
        String authorized = authorize(shop, 4_000);
        assertThat(shop.post("/v1/payments/" + authorized + "/capture", Api.newKey(), "{\"amount\":1500}")
                        .status())
                .isEqualTo(200);

        auditor.completePasses();
        JsonNode clean = admin().get("/v1/ops/invariants").json();
        assertThat(clean.get("violations").asLong())
                .as("real traffic breaks no law: %s", clean.get("recent"))
                .isZero();
        assertThat(clean.get("checks")).hasSize(11);
        clean.get("checks")
                .forEach(check -> assertThat(check.get("last_pass_finished_at").isNull())
                        .as("%s finished a pass", check.get("check").asString())
                        .isFalse());

        LedgerProjection.projectAll(jdbc, projector);
        UUID unbalanced = plantUnbalancedTransaction(id(refunded));
        String eventless = charge(shop, 2_500);
        tamper("DELETE FROM outbox WHERE resource_type = 'payment' AND resource_id = '" + id(eventless)
                + "' AND sequence = (SELECT max(sequence) FROM outbox WHERE resource_id = '" + id(eventless) + "')");
        // The refund as settled, and a chargeback on top of it, with no exposure item: refunds and chargebacks over
        // the capture, unknown to any person.
        String before =
                jdbc.sql("""
                        SELECT format('amount_refund_pending = %s, amount_refunded = %s, amount_disputed = %s',
                                      amount_refund_pending, amount_refunded, amount_disputed)
                          FROM payments WHERE id = :id
                        """).param("id", id(refunded)).query(String.class).single();
        String overlap = "amount_refund_pending = 0, amount_refunded = 3000, amount_disputed = 2500";
        tamper("UPDATE payments SET " + overlap + " WHERE id = '" + id(refunded) + "'");
        // The unknown payment's key completed: nothing could fence its outcome, and what starts from the unfinished
        // keys (the reconciler, the unknown-outcome gauges, Needs attention) would not see it.
        String undecided = unknown.text("id");
        tamper("UPDATE idempotency_keys SET status = 'COMPLETED', response_code = 202, response_body = '{}'"
                + " WHERE resource_id = '" + id(undecided) + "'");
        auditor.completePasses();

        JsonNode found = admin().get("/v1/ops/invariants").json();
        assertThat(violations(found))
                .containsEntry("ledger_balanced", 1L)
                .containsEntry("balances_equal_entries", 1L)
                .containsEntry("state_changes_have_events", 1L)
                .containsEntry("refunds_within_captured", 1L)
                .containsEntry("undecided_attempts_have_open_keys", 1L);
        assertThat(found.get("violations").asLong()).isEqualTo(5);
        assertThat(found.toString())
                .contains(
                        unbalanced.toString(),
                        id(eventless).toString(),
                        refunded,
                        id(undecided).toString());
        assertThat(output)
                .contains("invariant violated: check=ledger_balanced")
                .contains("subject=journal transaction " + unbalanced)
                .contains("invariant violated: check=refunds_within_captured")
                .contains("payment=" + id(refunded))
                .contains("invariant violated: check=undecided_attempts_have_open_keys")
                .contains("subject=payment " + id(undecided));
        assertThat(openInvariantReviews()).isEqualTo(5);
        String scrape = admin().get("/actuator/prometheus").body();
        assertThat(scrape).contains("kopek_audit_violations{check=\"ledger_balanced\"} 1.0");
        assertThat(consolePage()).contains("ledger_balanced", unbalanced.toString(), refunded);
        alertFires(scrape);

        auditor.completePasses();
        assertThat(openInvariantReviews())
                .as("found again, the same violations: no second item")
                .isEqualTo(5);
        tamper("UPDATE payments SET " + before + " WHERE id = '" + id(refunded) + "'");
        auditor.completePasses();
        JsonNode repaired = admin().get("/v1/ops/invariants").json();
        assertThat(violations(repaired)).containsEntry("refunds_within_captured", 0L);
        assertThat(repaired.get("violations").asLong()).isEqualTo(4);

        longAfterTheWalkPassedThemAPlantedEntryAndAPlatformBalanceAreFound(shop, id(first), output);
    }

    /**
     * The balances check walks the journal a slice at a time, and a pass starts its sums afresh: an entry of the
     * very first payment, changed after many passes went over it, is found by the next pass, and so is a platform
     * account's balance row grown outside the projector (the platform accounts are in every journal transaction).
     */
    private void longAfterTheWalkPassedThemAPlantedEntryAndAPlatformBalanceAreFound(
            Api shop, UUID first, CapturedOutput output) throws SQLException {
        for (int i = 0; i < 8; i++) {
            charge(shop, 300 + i);
        }
        LedgerProjection.projectAll(jdbc, projector);
        auditor.completePasses();
        long accounts = count("ledger_accounts");
        assertThat(jdbc.sql("SELECT last_pass_rows FROM invariant_cursors WHERE check_name = 'balances_equal_entries'")
                        .query(Long.class)
                        .single())
                .as("a pass takes every account twice (targets, verdict) and walks every journal transaction")
                .isEqualTo(2 * accounts + count("ledger_transactions"));

        plantUnbalancedTransaction(first);
        long earlyAccount =
                jdbc.sql("""
                        SELECT e.account_id FROM ledger_entries e
                         WHERE e.id = (SELECT min(e.id) FROM ledger_entries e
                                         JOIN ledger_accounts a ON a.id = e.account_id
                                         JOIN ledger_transactions t ON t.id = e.transaction_id
                                        WHERE a.merchant_id IS NOT NULL AND t.payment_id = :payment
                                          AND t.kind = 'CAPTURED')
                        """).param("payment", first).query(Long.class).single();
        long platform = jdbc.sql("""
                        SELECT id FROM ledger_accounts
                         WHERE merchant_id IS NULL AND type = 'PSP_RECEIVABLE' AND currency = 'EUR'
                        """).query(Long.class).single();
        String grown = "UPDATE ledger_balances SET credit_minor = credit_minor + %d WHERE account_id = " + platform
                + " AND shard = (SELECT min(shard) FROM ledger_balances WHERE account_id = " + platform + ")";
        tamper(grown.formatted(5));
        auditor.completePasses();

        JsonNode found = admin().get("/v1/ops/invariants").json();
        assertThat(violations(found)).containsEntry("balances_equal_entries", 3L);
        assertThat(output)
                .contains("check=balances_equal_entries")
                .contains("subject=account " + platform + " merchant=null")
                .contains("subject=account " + earlyAccount + " merchant=");

        tamper(grown.formatted(-5));
        auditor.completePasses();
        assertThat(violations(admin().get("/v1/ops/invariants").json()))
                .as("the platform balance restored, the next whole pass clears it")
                .containsEntry("balances_equal_entries", 2L);
    }

    private long count(String table) {
        return jdbc.sql("SELECT count(*) FROM " + table).query(Long.class).single();
    }

    private URI baseUri() {
        return URI.create("http://127.0.0.1:" + port);
    }

    private Api admin() {
        return new Api(baseUri(), IntegrationTest.ADMIN_TOKEN);
    }

    private static String newReference() {
        return Api.unique("audited");
    }

    private String charge(Api shop, long amount) {
        Api.Response paid = shop.pay(Api.newKey(), Api.payment(newReference(), amount, "EUR", "pm_ok"));
        assertThat(paid.status()).isEqualTo(201);
        return paid.text("id");
    }

    private String authorize(Api shop, long amount) {
        Api.Response paid = shop.pay(
                Api.newKey(),
                "{\"reference\":\"" + newReference() + "\",\"amount\":" + amount
                        + ",\"currency\":\"EUR\",\"payment_method\":\"pm_ok\",\"capture_method\":\"manual\"}");
        assertThat(paid.status()).isEqualTo(201);
        return paid.text("id");
    }

    private static UUID id(String publicId) {
        String hex = publicId.substring(publicId.indexOf('_') + 1);
        return UUID.fromString(hex.replaceFirst("(.{8})(.{4})(.{4})(.{4})(.{12})", "$1-$2-$3-$4-$5"));
    }

    /**
     * One entry of the payment's capture, on a merchant account, made larger with the triggers off, as only a bypass
     * could; after the projection counted it, so the account's balance no longer equals its entries either.
     */
    private UUID plantUnbalancedTransaction(UUID payment) throws SQLException {
        UUID transaction =
                jdbc.sql("""
                        SELECT id FROM ledger_transactions WHERE payment_id = :payment AND kind = 'CAPTURED'
                        """).param("payment", payment).query(UUID.class).single();
        tamper("UPDATE ledger_entries SET amount_minor = amount_minor + 1 WHERE id = (SELECT min(e.id)"
                + " FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id"
                + " WHERE a.merchant_id IS NOT NULL AND e.transaction_id = '" + transaction + "')");
        return transaction;
    }

    private void tamper(String sql) throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.execute("SET LOCAL session_replication_role = replica");
            assertThat(s.executeUpdate(sql)).as(sql).isEqualTo(1);
            c.commit();
        }
    }

    private static Map<String, Long> violations(JsonNode status) {
        Map<String, Long> counts = new TreeMap<>();
        status.get("checks")
                .forEach(c -> counts.put(
                        c.get("check").asString(), c.get("violations").asLong()));
        return counts;
    }

    private long openInvariantReviews() {
        return jdbc.sql("SELECT count(*) FROM manual_reviews WHERE subject = 'invariant' AND status = 'OPEN'")
                .query(Long.class)
                .single();
    }

    /** The Invariants page as an admin's browser gets it. */
    private String consolePage() throws IOException, InterruptedException {
        return ConsoleSession.logIn(baseUri(), IntegrationTest.ADMIN_TOKEN).page("/console/invariants");
    }

    /**
     * The scraped gauges, as two instances would report them for five minutes, through the real alert rule: it fires
     * once for each check with a violation, and for no other.
     */
    private static void alertFires(String scrape) throws IOException, InterruptedException {
        Promtool.required("InvariantAuditorTest");
        Map<String, Long> gauges = new TreeMap<>();
        Matcher sample = Pattern.compile("(?m)^kopek_audit_violations\\{check=\"([a-z_]+)\"} (\\S+)$")
                .matcher(scrape);
        while (sample.find()) {
            gauges.put(sample.group(1), Math.round(Double.parseDouble(sample.group(2))));
        }
        assertThat(gauges).hasSize(11);
        StringBuilder input = new StringBuilder();
        StringBuilder expected = new StringBuilder();
        gauges.forEach((check, value) -> {
            for (String instance : List.of("kopek-a:8080", "kopek-b:8080")) {
                input.append("      - series: 'kopek_audit_violations{job=\"kopek\",instance=\"%s\",check=\"%s\"}'\n"
                                .formatted(instance, check))
                        .append("        values: '%dx5'\n".formatted(value));
            }
            if (value > 0) {
                expected.append("          - exp_labels: {severity: page, check: %s}\n".formatted(check))
                        .append("            exp_annotations:\n")
                        .append("              summary: \"The production audit found a violation of a law (%s)\"\n"
                                .formatted(check))
                        .append("              description: \"Kopek's own data breaks one of its laws. The console's"
                                + " Invariants page lists what was found, with ids.\"\n")
                        .append("              runbook_url: docs/runbooks/invariant-violation.md\n");
            }
        });
        Path test = Files.createTempFile(Promtool.RULES.toAbsolutePath(), "planted", ".test.yml");
        try {
            Files.writeString(test, """
                    rule_files: [alerts.yml]
                    tests:
                      - interval: 1m
                        input_series:
                    %s    alert_rule_test:
                          - eval_time: 2m
                            alertname: KopekInvariantViolated
                            exp_alerts:
                    %s""".formatted(input, expected));
            Promtool.Result tested =
                    Promtool.run("test", "rules", test.getFileName().toString());
            assertThat(tested.exit()).as(tested.output()).isZero();
            assertThat(tested.output()).contains("SUCCESS");
        } finally {
            Files.delete(test);
        }
    }
}

package dev.kopek.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;

/**
 * The operations metrics exist at /actuator/prometheus for every kind of operation, and the shipped Grafana
 * dashboard and Prometheus alert rules name only metrics that exist and runbooks that exist.
 */
class OpsArtifactsTest extends IntegrationTest {

    private static final Path OPS = Path.of("..", "ops");
    private static final Pattern METRIC = Pattern.compile("\\bkopek_[a-z0-9_]+");
    private static final List<String> KINDS = List.of("payment", "capture", "void", "refund");
    /**
     * Gauges registered only where Kafka is configured, scraped by the outbox tests instead (PollingRelayTest,
     * EventsTopicGaugesTest).
     */
    private static final Set<String> KAFKA_ONLY = Set.of(
            "kopek_outbox_lag_seconds",
            "kopek_kafka_topic_replication_factor",
            "kopek_kafka_topic_min_insync_replicas",
            "kopek_kafka_brokers");

    private String scrape;

    @BeforeEach
    void paymentThenScrape() {
        Api api = newMerchant();
        assertThat(api.pay(Api.newKey(), Api.payment(newReference(), 4990, "RUB", "pm_ok"))
                        .status())
                .isEqualTo(201);
        Api.Response response = new Api(baseUri(), ADMIN_TOKEN).get("/actuator/prometheus");
        assertThat(response.status()).isEqualTo(200);
        scrape = response.body();
    }

    @Test
    void everyNamedMetricIsScrapedForEveryKind() {
        for (String perKind : List.of(
                "kopek_operations_unknown",
                "kopek_operations_unknown_oldest_age_seconds",
                "kopek_manual_review_open_by_kind",
                "kopek_idempotency_reclaims_total",
                "kopek_idempotency_stale_attempt_rejections_total",
                "kopek_recovery_lease_expiry_to_final_seconds_count")) {
            for (String kind : KINDS) {
                assertThat(scrape)
                        .as(perKind + " for " + kind)
                        .containsPattern("(?m)^" + perKind + "\\{[^}]*kind=\"" + kind + "\"[^}]*} ");
            }
        }
        for (String consumer : List.of("feed", "webhooks")) {
            assertThat(scrape).containsPattern("(?m)^kopek_outbox_consumer_lag_seconds\\{consumer=\"" + consumer);
        }
        assertThat(names())
                .contains(
                        "kopek_payments_unknown",
                        "kopek_payments_unknown_oldest_age_seconds",
                        "kopek_manual_review_open",
                        "kopek_webhooks_delivery_failures_total",
                        "kopek_webhooks_attempts_total",
                        "kopek_webhooks_dead_letter",
                        "kopek_webhook_endpoints_disabled",
                        "kopek_settlement_breaks_open",
                        "kopek_settlement_breaks_reported",
                        "kopek_ledger_drift_accounts",
                        "kopek_ledger_drift_detected_total");
        for (String type : List.of("missing_internal", "missing_at_psp", "amount_mismatch", "status_mismatch")) {
            assertThat(scrape).containsPattern("(?m)^kopek_settlement_breaks_open\\{[^}]*type=\"" + type);
        }
        assertThat(scrape)
                .containsPattern("(?m)^kopek_psp_calls_seconds_bucket\\{adapter=\"simulator\",operation=\"charge\","
                        + "outcome=\"succeeded\",le=\"0.05\"}");
    }

    /**
     * PSP calls are timed by adapter and operation: a capture, a refund (sent by the reconciler, as dispatch is off
     * in tests) and the reconciler's lookup of a payment whose process died after the PSP charged each add one call
     * to their own series.
     */
    @Test
    void captureRefundAndLookupCallsAreTimedByAdapterAndOperation() {
        Api api = newMerchant();
        Api.Response authorized = api.pay(
                Api.newKey(),
                "{\"reference\":\"" + newReference() + "\",\"amount\":"
                        + "3000,\"currency\":\"EUR\",\"payment_method\":\"pm_ok\",\"capture_method\":\"manual\"}");
        assertThat(authorized.status()).as(authorized.body()).isEqualTo(201);
        String id = authorized.text("id");
        reconciler.reconcileOnce(); // what earlier tests left to the reconciler is sent before counting
        String before = scrape();

        assertThat(api.post("/v1/payments/" + id + "/capture", Api.newKey(), "{\"amount\":3000}")
                        .status())
                .isEqualTo(200);
        Api.Response refund = api.post("/v1/payments/" + id + "/refunds", Api.newKey(), "{\"amount\":1000}");
        assertThat(refund.status()).as(refund.body()).isEqualTo(202);
        reconciler.reconcileOnce();
        assertThat(api.get("/v1/refunds/" + refund.text("id")).text("status")).isEqualTo("succeeded");
        crash.crashNextPayment();
        assertThat(api.pay(Api.newKey(), Api.payment(newReference(), 1200, "EUR", "pm_ok"))
                        .status())
                .isEqualTo(500);
        clock.advance(Duration.ofSeconds(31));
        reconciler.reconcileOnce();
        String after = scrape();

        String captures =
                "kopek_psp_calls_seconds_count{adapter=\"simulator\",operation=\"capture\"," + "outcome=\"succeeded\"}";
        assertThat(value(after, captures)).as(captures).isEqualTo(value(before, captures) + 1);
        for (String series : List.of(
                "operation=\"capture\",outcome=\"succeeded\"",
                "operation=\"refund\",outcome=\"succeeded\"",
                "operation=\"lookup_charge\",outcome=\"found\"")) {
            // The reconciler's pass may also send what another test left due meanwhile; this test's call is one.
            String count = "kopek_psp_calls_seconds_count{adapter=\"simulator\"," + series + "}";
            assertThat(value(after, count)).as(count).isGreaterThanOrEqualTo(value(before, count) + 1);
            String sum = "kopek_psp_calls_seconds_sum{adapter=\"simulator\"," + series + "}";
            assertThat(value(after, sum))
                    .as(sum + " grows by the call's duration")
                    .isGreaterThan(value(before, sum));
        }
    }

    @Test
    void dashboardParsesAndQueriesOnlyExistingMetrics() throws IOException {
        JsonNode dashboard = Api.JSON.readTree(Files.readString(OPS.resolve("grafana/kopek.json")));
        assertThat(dashboard.get("uid").asString()).isEqualTo("kopek-operations");
        Set<String> queried = new TreeSet<>();
        for (JsonNode panel : dashboard.get("panels")) {
            assertThat(panel.get("targets")).as(panel.get("title").asString()).isNotEmpty();
            for (JsonNode target : panel.get("targets")) {
                queried.addAll(metricsIn(target.get("expr").asString()));
            }
        }
        assertThat(queried).hasSizeGreaterThan(15);
        assertThat(names())
                .containsAll(
                        queried.stream().filter(n -> !KAFKA_ONLY.contains(n)).toList());
    }

    @Test
    void alertRulesAreWellFormedAndPointAtRealMetricsAndRunbooks() throws IOException {
        Map<String, Object> file = new Yaml().load(Files.readString(OPS.resolve("prometheus/alerts.yml")));
        Set<String> alerts = new TreeSet<>();
        for (Map<String, Object> group : list(file.get("groups"))) {
            assertThat(group).containsKeys("name", "rules");
            for (Map<String, Object> rule : list(group.get("rules"))) {
                assertThat(rule.keySet())
                        .containsAll(List.of("alert", "expr", "labels", "annotations"))
                        .isSubsetOf(List.of("alert", "expr", "for", "labels", "annotations"));
                alerts.add((String) rule.get("alert"));
                if (rule.containsKey("for")) {
                    assertThat((String) rule.get("for")).matches("\\d+[smh]");
                }
                Map<String, Object> labels = map(rule.get("labels"));
                assertThat(labels.get("severity")).isIn("page", "ticket");
                Map<String, Object> annotations = map(rule.get("annotations"));
                assertThat(annotations).containsKeys("summary", "runbook_url");
                assertThat(OPS.resolveSibling((String) annotations.get("runbook_url")))
                        .exists();
                String expr = ((String) rule.get("expr")).strip();
                assertThat(expr).as(rule.get("alert") + " compares").containsPattern("[<>]=? ?\\d");
                assertThat(parenthesesBalance(expr))
                        .as(rule.get("alert") + " parentheses")
                        .isTrue();
                Set<String> used = metricsIn(expr);
                assertThat(used).isNotEmpty();
                // The Kafka relay's gauges exist only where a relay runs; every other name must be scraped here.
                assertThat(names())
                        .containsAll(used.stream()
                                .filter(n -> !KAFKA_ONLY.contains(n))
                                .toList());
            }
        }
        assertThat(alerts)
                .contains(
                        "KopekUnknownTooOld",
                        "KopekReviewQueueGrowing",
                        "KopekOutboxLag",
                        "KopekSettlementBreakReported",
                        "KopekLedgerDrift",
                        "KopekPspErrorRate",
                        "KopekPspCircuitOpen");
    }

    private String scrape() {
        Api.Response response = new Api(baseUri(), ADMIN_TOKEN).get("/actuator/prometheus");
        assertThat(response.status()).isEqualTo(200);
        return response.body();
    }

    /** A series' value in a scrape, 0 when it is not there yet (a timer appears with its first call). */
    private static double value(String scrape, String series) {
        Matcher m =
                Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(scrape);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    private Set<String> names() {
        return scrape.lines()
                .filter(line -> line.startsWith("kopek_"))
                .map(line -> line.substring(0, line.indexOf(line.contains("{") ? '{' : ' ')))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static Set<String> metricsIn(String expr) {
        Set<String> found = new TreeSet<>();
        Matcher m = METRIC.matcher(expr);
        while (m.find()) {
            found.add(m.group());
        }
        return found;
    }

    private static boolean parenthesesBalance(String expr) {
        int depth = 0;
        for (char c : expr.toCharArray()) {
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            if (depth < 0) {
                return false;
            }
        }
        return depth == 0;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Object value) {
        assertThat(value).isInstanceOf(List.class);
        return (List<Map<String, Object>>) value;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        assertThat(value).isInstanceOf(Map.class);
        return (Map<String, Object>) value;
    }
}

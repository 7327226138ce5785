package dev.kopek.simulation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.KopekApplication;
import dev.kopek.notifications.NotificationInbox;
import dev.kopek.reconciliation.StuckAttemptReconciler;
import dev.kopek.simulator.AcquirerSimulator;
import dev.kopek.simulator.SimulatorConfig;
import dev.kopek.simulator.WebhookSettings;
import dev.kopek.support.Api;
import dev.kopek.support.CrashSwitch;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.MutableClock;
import dev.kopek.support.SharedSimulator;
import dev.kopek.support.Shrink;
import dev.kopek.support.TestDatabase;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The whole-system seeded simulation (issue 10 §3, in the style of TigerBeetle's VOPR). From a seed: random
 * merchants and steps through Kopek's real HTTP API (two instances on one database) and the real PSP simulator
 * over HTTP — payments, captures, voids, refunds, bursts, disputes, webhooks duplicated, reordered and held back,
 * every fault token, crashes after the PSP answered, retries, clock jumps — then quiescence, a person resolving
 * what is in review, and the {@link Auditor}. A failure prints the seed and the shortest step list that still
 * fails. How it works, what it checks and which seed found which defect: kopek-server/docs/simulation.md.
 *
 * <pre>
 * ./mvnw verify                                          # 200 seeds (1..200)
 * ./mvnw -pl kopek-server -am verify -Dtest=SystemSimulationTest -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dkopek.simulation.seeds=10000 [-Dkopek.simulation.first=N]   # any number, from any first seed
 *     -Dkopek.simulation.seed=N                          # replay one seed
 *     -Dkopek.simulation.exclusions=none                 # also run the steps of unfixed known defects
 *     -Dkopek.simulation.shrink=off|first|TEXT           # shrink to the first failing check (default), to a
 *                                                        # violation containing TEXT, or not at all
 * </pre>
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        classes = {KopekApplication.class, IntegrationTest.TestBeans.class})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SystemSimulationTest {

    /**
     * A seed that found a defect of issue 10 (note Sn in kopek-server/docs/simulation.md), kept as a regression
     * test, with the scenario that made it find the defect: if the generator stops producing that scenario for the
     * seed, the regression test fails instead of silently testing something else.
     */
    record Regression(int defect, long seed, String note, Predicate<List<Op>> scenario) {}

    static final List<Regression> REGRESSION_SEEDS = List.of(
            new Regression(
                    8,
                    108,
                    "S1: a payment whose PSP call fails with nothing charged stays unknown, versions"
                            + " without events",
                    ops -> ops.stream()
                            .anyMatch(op ->
                                    op instanceof Op.Create c && c.method().equals("pm_5xx_no_charge"))),
            new Regression(
                    8,
                    121,
                    "S2: a refund that succeeded keeps the failure_reason of a 429 try",
                    ops -> ops.stream().anyMatch(op -> op instanceof Op.Refund r && "429".equals(r.fault()))),
            new Regression(
                    5,
                    151,
                    "S3: a declined capture emits no event",
                    ops -> ops.stream().anyMatch(op -> op instanceof Op.Capture c && "declined".equals(c.fault()))),
            new Regression(
                    5,
                    101,
                    "S4/S7: emitted event types not subscribable; a dispute's close skips a version",
                    ops -> ops.stream().anyMatch(op -> op instanceof Op.Dispute d && "won".equals(d.then()))),
            new Regression(
                    3,
                    161,
                    "S5: a refund parked past the key window cannot be resolved by a person",
                    ops -> ops.stream().anyMatch(op -> op instanceof Op.Dispute d && "lost".equals(d.then()))
                            && ops.stream().anyMatch(op -> op instanceof Op.Refund)
                            && ops.stream()
                                    .anyMatch(op ->
                                            op instanceof Op.Jump j && j.past().equals("key_window"))),
            new Regression(
                    7,
                    137,
                    "S6: a parked payment settled by the PSP leaves its review open",
                    ops -> ops.stream()
                                    .anyMatch(op -> op instanceof Op.Create c
                                            && c.manual()
                                            && c.method().equals("pm_5xx_after_charge"))
                            && ops.stream()
                                    .anyMatch(op ->
                                            op instanceof Op.Jump j && j.past().equals("authorization_expiry"))),
            new Regression(
                    4,
                    148,
                    "S8: a poisoned head of the notification queue starves the rest",
                    ops -> ops.stream().anyMatch(op -> op instanceof Op.Poison p && p.count() > 100)),
            new Regression(
                    7,
                    34,
                    "S9: a PSP webhook during the call makes the first request answer 409",
                    ops -> ops.stream().anyMatch(op -> op instanceof Op.Create c && c.webhookDuringCall())),
            // Found by pipeline3 with OneRetry.afterTransportFailure reverted to "the last answer decides" (not
            // committed): seeds 41 and 38 then fail PSP_MOVEMENT_KNOWN (charged at the PSP, FAILED in Kopek), 41
            // also INTENT_CHARGED_AT_MOST_ONCE (the freed intent was charged again under a new key).
            new Regression(
                    6,
                    41,
                    "S11: a 4xx answer to the retry after a transport failure is taken as nothing" + " happened",
                    ops -> ops.stream()
                            .anyMatch(op -> op instanceof Op.Create c
                                    && c.method().equals("pm_reset_then_refused")
                                    && !c.crash())),
            // Found by pipeline3 with a trigger that refuses a refund making disputed + refunded exceed captured (the
            // V3 CHECK that V50 dropped; local, not committed): seeds 246235 and 315117 then fail PSP_MOVEMENT_KNOWN,
            // FIGURES_EQUAL_PSP, JOURNAL_EQUALS_PSP and NOTHING_IN_LIMBO (the refund stays PENDING), each shrunk to
            // three steps: pay, refund (the worker dies after the PSP refunded), dispute of the whole charge.
            new Regression(
                    2,
                    246235,
                    "S12: a refund confirmed after a dispute opened can never be recorded",
                    ops -> ops.stream().anyMatch(op -> op instanceof Op.Refund r && r.crash())
                            && ops.stream().anyMatch(op -> op instanceof Op.Dispute d && d.percent() == 100)),
            // Found by the lead with a trigger that refuses a dispute making disputed + refunded exceed captured (the
            // dispute side of the V3 CHECK that V50 dropped; local, not committed): seed 315117 then fails
            // PSP_MOVEMENT_KNOWN ("PSP chargeback … is not recorded"), FIGURES_EQUAL_PSP, JOURNAL_EQUALS_PSP and
            // NOTHING_IN_LIMBO (dispute.opened waiting for ever), shrunk to four steps: pay, a burst of refunds, a
            // refund whose worker dies after the PSP refunded, a dispute of the whole charge.
            new Regression(
                    1,
                    315117,
                    "S13: a chargeback on a refunded payment is never recorded",
                    ops -> ops.stream().anyMatch(op -> op instanceof Op.Dispute d && d.percent() == 100)
                            && ops.stream()
                                    .anyMatch(op -> op instanceof Op.Refund
                                            || op instanceof Op.Burst b
                                                    && b.kind().equals("refund"))),
            // Found with PaymentStore.HOLDING_STATES reverted to leave out DISPUTED and CHARGED_BACK (the expiry of
            // an authorization skipped them before 3f52c54; local, not committed): seeds 5962 and 5009 then fail
            // HOLD_RELEASED, each shrunk to four steps: a manual-capture payment, a partial capture, a dispute (left
            // open / lost), the jump past the authorization's expiry. Seeds 1..300 never met the scenario; these
            // were picked by generating steps (no run) for that scenario, then run with the fix reverted.
            new Regression(
                    7,
                    5962,
                    "S14: the uncaptured rest of a disputed payment is never released at expiry",
                    ops -> holdThenDispute(ops, null)),
            new Regression(
                    7,
                    5009,
                    "S15: the uncaptured rest of a charged-back payment is never released at expiry",
                    ops -> holdThenDispute(ops, "lost")));

    /** A manual-capture payment, a partial capture, a dispute not won (ending {@code then}), a jump past expiry. */
    private static boolean holdThenDispute(List<Op> ops, String then) {
        return ops.stream().anyMatch(op -> op instanceof Op.Create c && c.manual())
                && ops.stream()
                        .anyMatch(op ->
                                op instanceof Op.Capture c && !c.finalCapture() && c.percent() > 0 && c.percent() < 100)
                && ops.stream().anyMatch(op -> op instanceof Op.Dispute d && java.util.Objects.equals(d.then(), then))
                && ops.stream()
                        .anyMatch(op -> op instanceof Op.Jump j && j.past().equals("authorization_expiry"));
    }

    /** The seeds {@code ./mvnw verify} runs: 1..CI_SEEDS ({@link SimulationCoverageTest} checks what they cover). */
    static final long CI_SEEDS = 200;

    private static final AcquirerSimulator PSP = SharedSimulator.get();
    private static final String DATABASE = TestDatabase.newDatabase();
    private static final int SHRINK_RUNS = 30;
    private static final Duration SHRINK_BUDGET = Duration.ofSeconds(90);

    @LocalServerPort
    int port;

    @Autowired
    MutableClock clock;

    @Autowired
    CrashSwitch crash;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    StuckAttemptReconciler reconciler;

    @Autowired
    NotificationInbox inbox;

    private ConfigurableApplicationContext second;
    private WebhookSink sink;
    private Workers workers;
    private Snapshots snapshots;
    private final Map<String, String> subscribable = new ConcurrentHashMap<>();

    @DynamicPropertySource
    static void kopek(DynamicPropertyRegistry registry) {
        IntegrationTest.commonProperties(registry, DATABASE);
    }

    @BeforeAll
    void startSecondInstanceAndSink() {
        List<String> args = new ArrayList<>(List.of("--server.port=0", "--kopek.db.pool-size=5"));
        IntegrationTest.commonProperties((name, value) -> args.add("--" + name + "=" + value.get()), DATABASE);
        second = new SpringApplicationBuilder(KopekApplication.class, IntegrationTest.TestBeans.class)
                .run(args.toArray(String[]::new));
        MutableClock secondClock = second.getBean(MutableClock.class);
        secondClock.advance(clock.offset());
        sink = new WebhookSink();
        PSP.reset();
        PSP.advanceClock(clock.offset());
        workers = new Workers(
                reconciler, inbox, List.of(clock, secondClock), crash, second.getBean(CrashSwitch.class), PSP);
        snapshots = new Snapshots(jdbc, PSP);
    }

    @AfterAll
    void stop() {
        PSP.reset();
        if (sink != null) {
            sink.close();
        }
        if (second != null) {
            second.close();
        }
    }

    static LongStream seeds() {
        Long one = Long.getLong("kopek.simulation.seed");
        if (one != null) {
            return LongStream.of(one);
        }
        long first = Long.getLong("kopek.simulation.first", 1);
        return LongStream.range(first, first + Long.getLong("kopek.simulation.seeds", CI_SEEDS));
    }

    @TestFactory
    Stream<DynamicTest> seededRunsKeepEveryLaw() {
        KnownDefects exclusions = KnownDefects.fromSystemProperties();
        String hunt = System.getProperty("kopek.simulation.hunt");
        if (hunt != null) {
            // seed:text;seed:text — replay each seed and shrink it to the shortest list still showing that text.
            return Stream.of(hunt.split(";"))
                    .map(pair -> pair.split(":", 2))
                    .map(pair -> DynamicTest.dynamicTest(
                            "seed " + pair[0] + " shrunk to '" + pair[1] + "'",
                            () -> check(Long.parseLong(pair[0].trim()), exclusions, pair[1])));
        }
        String target = System.getProperty("kopek.simulation.shrink", "first");
        return seeds().mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> check(seed, exclusions, target)));
    }

    /**
     * Every regression seed still generates its scenario, and runs with every law audited — here, unless the seeded
     * runs of this build include it already (the default 1..200 does), so it is never run twice.
     */
    @TestFactory
    Stream<DynamicTest> seedsThatFoundADefectStayFixed() {
        Set<Long> runHere =
                Long.getLong("kopek.simulation.seed") != null || System.getProperty("kopek.simulation.hunt") != null
                        ? Set.of()
                        : seeds().boxed().collect(Collectors.toSet());
        return REGRESSION_SEEDS.stream()
                .filter(r -> KnownDefects.isFixed(r.defect()))
                .map(r -> DynamicTest.dynamicTest(
                        "defect " + r.defect() + " seed " + r.seed() + " (" + r.note() + ")", () -> {
                            assertThat(r.scenario().test(OpGenerator.generate(r.seed(), KnownDefects.none())))
                                    .as("seed %d no longer generates its scenario: %s", r.seed(), r.note())
                                    .isTrue();
                            if (!runHere.contains(r.seed())) {
                                check(r.seed(), KnownDefects.none(), "first");
                            }
                        }));
    }

    private void check(long seed, KnownDefects exclusions, String target) {
        List<Op> ops = OpGenerator.generate(seed, exclusions);
        List<Auditor.Violation> violations = run(seed, ops);
        if (violations.isEmpty()) {
            return;
        }
        StringBuilder report = new StringBuilder("seed ")
                .append(seed)
                .append(" breaks ")
                .append(violations.size())
                .append(" check(s):\n");
        violations.forEach(v -> report.append("  ").append(v).append('\n'));
        if (!target.equals("off")) {
            String match = target.equals("first") ? violations.getFirst().toString() : target;
            List<Op> shortest = shrink(
                    seed,
                    ops,
                    v -> v.toString()
                            .contains(
                                    target.equals("first")
                                            ? violations.getFirst().check().name()
                                            : match));
            report.append("shortest step list that still breaks ")
                    .append(
                            target.equals("first")
                                    ? violations.getFirst().check().name()
                                    : "'" + match + "'")
                    .append(" (")
                    .append(shortest.size())
                    .append(" of ")
                    .append(ops.size())
                    .append(" steps):\n");
            shortest.forEach(op -> report.append("  ").append(op).append('\n'));
        }
        report.append("replay: -Dkopek.simulation.seed=").append(seed);
        assertThat(violations).as(report.toString()).isEmpty();
    }

    /** Drops steps while the same check still fails (bounded in runs and time). */
    private List<Op> shrink(long seed, List<Op> ops, Predicate<Auditor.Violation> same) {
        long deadline = System.nanoTime() + SHRINK_BUDGET.toNanos();
        int[] runs = {0};
        return Shrink.dropChunks(
                ops,
                candidate -> {
                    runs[0]++;
                    return run(seed, candidate).stream().anyMatch(same);
                },
                () -> runs[0] < SHRINK_RUNS && System.nanoTime() < deadline);
    }

    private URI uri(int port) {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** One run: fresh merchants, the steps, quiescence, a person's decisions, quiescence again, the audit. */
    List<Auditor.Violation> run(long seed, List<Op> ops) {
        String prefix = "sim" + seed + "x" + UUID.randomUUID().toString().substring(0, 8);
        configurePsp();
        Api admin = new Api(uri(port), IntegrationTest.ADMIN_TOKEN);
        int secondPort = ((WebServerApplicationContext) second).getWebServer().getPort();
        List<Api> merchants = new ArrayList<>();
        List<Api> viaSecond = new ArrayList<>();
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String name = prefix + "-merchant-" + i;
            JsonNode merchant = admin.post("/v1/admin/merchants", null, "{\"name\":\"" + name + "\"}")
                    .json();
            String secret = admin.post(
                            "/v1/admin/merchants/" + merchant.get("id").asString() + "/keys", null, "{}")
                    .text("secret");
            merchants.add(new Api(uri(port), secret));
            viaSecond.add(new Api(uri(secondPort), secret));
            ids.add(snapshots.merchantId(name));
        }
        Api outsider = merchants.removeLast();
        viaSecond.removeLast();
        List<UUID> audited = ids.subList(0, 2);
        List<World.Finding> decisions = Collections.synchronizedList(new ArrayList<>());
        Runnable person = () -> new Operator(jdbc, PSP, admin).resolveOpenReviews(audited, decisions);
        Driver driver = new Driver(
                prefix,
                merchants,
                viaSecond,
                outsider,
                PSP,
                workers,
                () -> clock.instant().getEpochSecond(),
                person,
                seed);
        ops.forEach(driver::run);
        driver.findings().addAll(decisions);
        driver.quiesce(() -> snapshots.digest(audited), 10);
        new Operator(jdbc, PSP, admin).resolveOpenReviews(audited, driver.findings());
        driver.quiesce(() -> snapshots.digest(audited), 4);
        World world = snapshots.read(audited, prefix, clock.instant(), driver.observations(), driver.findings());
        checkSubscribable(world, merchants.getFirst(), driver.findings());
        world = snapshots.read(audited, prefix, clock.instant(), driver.observations(), driver.findings());
        return Auditor.audit(world);
    }

    private void configurePsp() {
        PSP.configure(SimulatorConfig.defaults()
                .withSlow(50, 150)
                .withTimeoutHangMillis(1_300)
                .withWebhooks(WebhookSettings.defaults().withUrl(sink.uri())));
    }

    /** Every event type Kopek emits must be one a merchant can subscribe to by name (L9). */
    private void checkSubscribable(World world, Api merchant, List<World.Finding> findings) {
        world.events().stream().map(World.EventRow::type).distinct().forEach(type -> {
            String refusal = subscribable.computeIfAbsent(type, t -> {
                // https to a public name: creation refuses http and internal addresses; it is deleted at once.
                Api.Response r = merchant.post(
                        "/v1/webhook-endpoints",
                        Api.newKey(),
                        "{\"url\":\"https://hooks.example.com/kopek-simulation\",\"event_types\":[\"" + t + "\"]}");
                if (r.status() == 201 || r.status() == 200) {
                    merchant.delete("/v1/webhook-endpoints/" + r.text("id"));
                    return "";
                }
                return r.status() + " " + r.body();
            });
            if (!refusal.isEmpty()) {
                findings.add(new World.Finding(
                        "L9", "Kopek emits " + type + " but a merchant cannot subscribe to it by name: " + refusal));
            }
        });
    }
}

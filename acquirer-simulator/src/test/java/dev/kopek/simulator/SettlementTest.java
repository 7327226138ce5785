package dev.kopek.simulator;

import static dev.kopek.simulator.SimClient.amountJson;
import static dev.kopek.simulator.SimClient.chargeJson;
import static dev.kopek.simulator.SimClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SettlementTest {
    private AcquirerSimulator simulator;
    private SimClient client;
    /** The simulator's "today": the clock is moved to 01:00 UTC of the next day so no test crosses midnight. */
    private LocalDate day;

    @BeforeEach
    void start() throws Exception {
        simulator = AcquirerSimulator.start(0);
        client = new SimClient(simulator);
        Instant now = Instant.parse(json(client.post("/_sim/clock/advance", "{\"seconds\": 0}"))
                .get("now")
                .stringValue());
        day = LocalDate.ofInstant(now, ZoneOffset.UTC).plusDays(1);
        simulator.advanceClock(
                Duration.between(now, day.atStartOfDay(ZoneOffset.UTC).toInstant())
                        .plusHours(1));
    }

    @AfterEach
    void stop() {
        client.close();
        simulator.close();
    }

    /** One second between movements, so their order in the file is their order here. */
    private void tick() {
        simulator.advanceClock(Duration.ofSeconds(1));
    }

    private record Scenario(String sale, String capture, String refund, String dispute) {}

    private Scenario scenario() throws Exception {
        String sale = client.sale("sale", 1000);
        tick();
        String auth = client.authorize("auth", 1000);
        tick();
        String capture =
                json(client.capture(auth, "cap", amountJson(600))).get("id").stringValue();
        tick();
        String refund = json(client.refund(sale, "ref", 200)).get("id").stringValue();
        tick();
        String dispute = simulator.openDispute(auth, 300L, null);
        tick();
        client.charge("declined", chargeJson("pm_declined"));
        client.voidCharge(client.authorize("voided", 50), "void");
        client.refund(client.sale("no-refund", 10, "pm_refund_declined"), "declined-refund", 10);
        return new Scenario(sale, capture, refund, dispute);
    }

    private String file(LocalDate date) throws Exception {
        HttpResponse<String> response = client.get("/_sim/settlements/" + date);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("text/csv"));
        return response.body();
    }

    @Test
    void theFileListsWhatSettledThatDayInOrder() throws Exception {
        Scenario s = scenario();
        String noRefund = simulator.charges().getLast().id();

        String csv = file(day);

        assertThat(csv).isEqualTo("""
                psp_reference,type,amount,currency,value_date
                %s,charge,1000,EUR,%s
                %s,charge,600,EUR,%s
                %s,refund,200,EUR,%s
                %s,chargeback,300,EUR,%s
                %s,charge,10,EUR,%s
                """.formatted(
                        s.sale(), day, s.capture(), day, s.refund(), day, s.dispute(), day, noRefund, day));
        assertThat(file(day)).as("deterministic").isEqualTo(csv);
        assertThat(simulator.settlementFile(day)).isEqualTo(csv);
        assertThat(file(day.minusDays(1))).isEqualTo(Settlements.CSV_HEADER + "\n");
    }

    @Test
    void aWonDisputeSettlesAsAReversal() throws Exception {
        String sale = client.sale("sale", 1000);
        tick();
        String dispute = simulator.openDispute(sale, null, null);
        tick();
        simulator.resolveDispute(dispute, true);

        assertThat(simulator.settlementRows(day))
                .extracting(SettlementRow::type)
                .containsExactly("charge", "chargeback", "chargeback_reversal");
    }

    @Test
    void feesFollowEachCapturedAmount() throws Exception {
        simulator.configure(SimulatorConfig.defaults().withFeeBps(250));
        String sale = client.sale("sale", 1000);
        tick();
        String auth = client.authorize("auth", 1000);
        String capture =
                json(client.capture(auth, "cap", amountJson(333))).get("id").stringValue();
        tick();
        client.sale("tiny", 1);

        assertThat(simulator.settlementRows(day))
                .extracting(SettlementRow::pspReference, SettlementRow::type, SettlementRow::amount)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(sale, "charge", 1000L),
                        org.assertj.core.groups.Tuple.tuple(sale, "fee", 25L),
                        org.assertj.core.groups.Tuple.tuple(capture, "charge", 333L),
                        // 2.5 % of 333 is 8.325, rounded half up to 8; 2.5 % of 1 rounds to 0 and gets no row
                        org.assertj.core.groups.Tuple.tuple(capture, "fee", 8L),
                        org.assertj.core.groups.Tuple.tuple(
                                simulator.charges().getLast().id(), "charge", 1L));
    }

    @Test
    void eachDayHasItsOwnFile() throws Exception {
        String first = client.sale("first", 100);
        simulator.advanceClock(Duration.ofDays(1));
        String second = client.sale("second", 200);

        assertThat(simulator.settlementRows(day))
                .extracting(SettlementRow::pspReference)
                .containsExactly(first);
        assertThat(simulator.settlementRows(day.plusDays(1))).singleElement().satisfies(row -> {
            assertThat(row.pspReference()).isEqualTo(second);
            assertThat(row.valueDate()).isEqualTo(day.plusDays(1));
        });
    }

    @Test
    void discrepanciesAreInjectedOverHttp() throws Exception {
        simulator.configure(SimulatorConfig.defaults().withFeeBps(100));
        Scenario s = scenario();

        HttpResponse<String> added = client.post(
                "/_sim/settlements/" + day + "/discrepancies", """
                {"missing": ["%s"],
                 "extra": [{"psp_reference": "ch_phantom", "type": "charge", "amount": 999, "currency": "EUR"}],
                 "wrong_amount": {"%s": 599},
                 "next_day": ["%s"]}""".formatted(s.sale(), s.capture(), s.refund()));

        assertThat(added.statusCode()).isEqualTo(200);
        String noRefund = simulator.charges().getLast().id();
        assertThat(file(day))
                .isEqualTo("""
                psp_reference,type,amount,currency,value_date
                %s,charge,599,EUR,%s
                %s,fee,6,EUR,%s
                %s,chargeback,300,EUR,%s
                %s,charge,10,EUR,%s
                ch_phantom,charge,999,EUR,%s
                """.formatted(s.capture(), day, s.capture(), day, s.dispute(), day, noRefund, day, day));
        assertThat(file(day.plusDays(1))).isEqualTo("""
                psp_reference,type,amount,currency,value_date
                %s,refund,200,EUR,%s
                """.formatted(s.refund(), day.plusDays(1)));
    }

    @Test
    void discrepanciesAreValidated() throws Exception {
        client.sale("sale", 1000);
        String path = "/_sim/settlements/" + day + "/discrepancies";

        assertThat(client.post(path, "{\"missing\": [\"ch_typo\"]}").statusCode())
                .isEqualTo(400);
        assertThat(client.post(path, "{\"wrong_amount\": {\"ch_typo\": 1}}").statusCode())
                .isEqualTo(400);
        assertThat(client.post(path, "{\"late\": []}").statusCode()).isEqualTo(400);
        assertThat(client.post(
                                path,
                                "{\"extra\": [{\"psp_reference\": \"a,b\", \"type\": \"charge\", "
                                        + "\"amount\": 1, \"currency\": \"EUR\"}]}")
                        .statusCode())
                .isEqualTo(400);
        assertThat(client.post(
                                path,
                                "{\"extra\": [{\"psp_reference\": \"x\", \"type\": \"charge\", "
                                        + "\"amount\": 1, \"currency\": \"EUR\", \"value_date\": \"soon\"}]}")
                        .statusCode())
                .isEqualTo(400);
        assertThat(client.post("/_sim/settlements/2026-13-01/discrepancies", "{}")
                        .statusCode())
                .isEqualTo(400);
        assertThat(client.get("/_sim/settlements/yesterday").statusCode()).isEqualTo(400);
        assertThat(simulator.settlementRows(day)).hasSize(1);
    }

    @Test
    void theJavaApiInjectsTheSameDiscrepanciesAndResetForgetsThem() throws Exception {
        String kept = client.sale("kept", 100);
        tick();
        String dropped = client.sale("dropped", 200);
        tick();
        String late = client.sale("late", 300);

        simulator.addSettlementDiscrepancies(
                day,
                SettlementDiscrepancies.none()
                        .withMissing(dropped)
                        .withWrongAmount(kept, 101)
                        .withNextDay(late)
                        .withExtra(new SettlementRow("re_phantom", "refund", 5, "EUR", day)));

        assertThat(simulator.settlementRows(day))
                .containsExactly(
                        new SettlementRow(kept, "charge", 101, "EUR", day),
                        new SettlementRow("re_phantom", "refund", 5, "EUR", day));
        assertThat(simulator.settlementRows(day.plusDays(1)))
                .containsExactly(new SettlementRow(late, "charge", 300, "EUR", day.plusDays(1)));
        assertThatThrownBy(() -> simulator.addSettlementDiscrepancies(
                        day, SettlementDiscrepancies.none().withMissing("ch_typo")))
                .isInstanceOf(IllegalArgumentException.class);

        simulator.reset();
        assertThat(simulator.settlementRows(day)).isEmpty();
    }
}

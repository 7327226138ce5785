package dev.kopek.simulator;

import static dev.kopek.simulator.SimClient.chargeJson;
import static dev.kopek.simulator.SimClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FaultTokenTest extends RunningSimulator {
    /**
     * This module's README's tables (acquirer-simulator/README.md) list every token and every armable fault: Kopek's
     * seeded simulation draws from these lists (AcquirerSimulator.paymentMethodTokens, armableFaults) and a person
     * reads them in that README.
     */
    @Test
    void readmeListsEveryTokenAndEveryArmableFault() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        assertThat(AcquirerSimulator.paymentMethodTokens())
                .hasSize(FaultToken.values().length)
                .allSatisfy(token -> assertThat(readme).contains("| `" + token + "`"));
        assertThat(AcquirerSimulator.armableFaults())
                .hasSize(ArmedFault.values().length)
                .allSatisfy(fault -> assertThat(readme).contains("| `" + fault + "` |"));
    }

    @ParameterizedTest
    @CsvSource({"pm_declined, card_declined", "pm_insufficient_funds, insufficient_funds"})
    void declinesAreStoredResultsThatMoveNoMoney(String token, String declineCode) throws Exception {
        HttpResponse<String> first = client.charge("decl", chargeJson(token));

        assertThat(first.statusCode()).isEqualTo(402);
        assertThat(json(first).get("status").stringValue()).isEqualTo("declined");
        assertThat(json(first).get("decline_code").stringValue()).isEqualTo(declineCode);
        HttpResponse<String> replay = client.charge("decl", chargeJson(token));
        assertThat(replay.statusCode()).isEqualTo(402);
        assertThat(replay.body()).isEqualTo(first.body());
        assertThat(client.lookup("decl").body()).isEqualTo(first.body());
        assertThat(simulator.moneyMovements("decl")).isZero();
        assertThat(simulator.charges())
                .singleElement()
                .satisfies(c -> assertThat(c.status()).isEqualTo("declined"))
                .satisfies(c -> assertThat(c.declineCode()).isEqualTo(declineCode));
    }

    @ParameterizedTest
    @CsvSource({
        "pm_invalid, 400, invalid_payment_method",
        "pm_5xx_no_charge, 503, service_unavailable",
        "pm_429, 429, rate_limited"
    })
    void refusalsStoreNothingAndReleaseTheKey(String token, int status, String error) throws Exception {
        HttpResponse<String> response = client.charge("refused", chargeJson(token));

        assertThat(response.statusCode()).isEqualTo(status);
        assertThat(json(response).get("error").stringValue()).isEqualTo(error);
        assertThat(client.lookup("refused").statusCode()).isEqualTo(404);
        assertThat(client.charge("refused", chargeJson(token)).statusCode())
                .as("processed afresh")
                .isEqualTo(status);
        // Released, not remembered: another body under the same key is a new charge, not a 422.
        assertThat(client.charge("refused", chargeJson("pm_ok")).statusCode()).isEqualTo(201);
        assertThat(simulator.moneyMovements("refused")).isEqualTo(1);
        assertThat(simulator.charges()).hasSize(1);
    }

    @Test
    void rateLimitingSaysWhenToComeBack() throws Exception {
        assertThat(client.charge("limited", chargeJson("pm_429")).headers().firstValue("Retry-After"))
                .hasValue("1");
    }

    @Test
    void timeoutAfterChargeChargesThenHangs() throws Exception {
        simulator.configure(SimulatorConfig.defaults().withTimeoutHangMillis(2_000));

        assertThatThrownBy(() -> client.charge("hang", chargeJson("pm_timeout_after_charge"), Duration.ofMillis(200)))
                .isInstanceOf(HttpTimeoutException.class);
        HttpResponse<String> retry = client.charge("hang", chargeJson("pm_timeout_after_charge"));

        assertThat(retry.statusCode()).isEqualTo(201);
        assertThat(json(retry).get("status").stringValue()).isEqualTo("succeeded");
        assertThat(simulator.moneyMovements("hang")).isEqualTo(1);
    }

    @Test
    void timeoutAfterChargeEventuallyAnswersWithTheCharge() throws Exception {
        simulator.configure(SimulatorConfig.defaults().withTimeoutHangMillis(150));
        long started = System.nanoTime();

        HttpResponse<String> response = client.charge("late", chargeJson("pm_timeout_after_charge"));

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(150));
        assertThat(response.statusCode()).isEqualTo(201);
        assertThat(response.body()).isEqualTo(client.lookup("late").body());
    }

    @Test
    void resetAfterChargeDropsTheConnectionAfterCharging() throws Exception {
        assertThatThrownBy(() -> client.charge("reset", chargeJson("pm_reset_after_charge")))
                .isInstanceOf(IOException.class)
                .isNotInstanceOf(HttpTimeoutException.class);

        HttpResponse<String> lookup = client.lookup("reset");
        assertThat(lookup.statusCode()).isEqualTo(200);
        assertThat(json(lookup).get("status").stringValue()).isEqualTo("succeeded");
        assertThat(client.charge("reset", chargeJson("pm_reset_after_charge")).statusCode())
                .isEqualTo(201);
        assertThat(simulator.moneyMovements("reset")).isEqualTo(1);
    }

    @Test
    void slowTakesItsTimeThenSucceeds() throws Exception {
        simulator.configure(SimulatorConfig.defaults().withSlow(100, 150));
        long started = System.nanoTime();

        HttpResponse<String> response = client.charge("slow", chargeJson("pm_slow"));

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(100));
        assertThat(response.statusCode()).isEqualTo(201);
        assertThat(simulator.moneyMovements("slow")).isEqualTo(1);
    }

    @Test
    void fiveHundredAfterChargeStoresTheSuccess() throws Exception {
        HttpResponse<String> response = client.charge("5xx", chargeJson("pm_5xx_after_charge"));

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(json(response).get("error").stringValue()).isEqualTo("internal_error");
        HttpResponse<String> retry = client.charge("5xx", chargeJson("pm_5xx_after_charge"));
        assertThat(retry.statusCode()).isEqualTo(201);
        assertThat(client.lookup("5xx").body()).isEqualTo(retry.body());
        assertThat(simulator.moneyMovements("5xx")).isEqualTo(1);
    }

    @Test
    void unknownTokensSimplySucceed() throws Exception {
        assertThat(client.charge("plain", chargeJson("pm_card_mastercard")).statusCode())
                .isEqualTo(201);
        assertThat(simulator.moneyMovements("plain")).isEqualTo(1);
    }

    @Test
    void closeInterruptsAHangingResponse() throws Exception {
        simulator.configure(SimulatorConfig.defaults().withTimeoutHangMillis(30_000));
        var pending = client.chargeAsync("stuck", chargeJson("pm_timeout_after_charge"));
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (simulator.charges().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        long started = System.nanoTime();

        simulator.close();

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));
        assertThatThrownBy(pending::join).hasCauseInstanceOf(IOException.class);
    }
}

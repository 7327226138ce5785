package dev.kopek.simulator;

import static dev.kopek.simulator.SimClient.chargeJson;
import static dev.kopek.simulator.SimClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RandomFaultTest extends RunningSimulator {
    @Test
    void failBeforeChargeBehavesLikePm5xxNoCharge() throws Exception {
        simulator.configure(SimulatorConfig.defaults().withFaultRates(1, 0, 0));

        HttpResponse<String> response = client.charge("before", chargeJson("pm_ok"));

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(client.lookup("before").statusCode()).isEqualTo(404);
        simulator.configure(SimulatorConfig.defaults());
        assertThat(client.charge("before", chargeJson("pm_ok")).statusCode()).isEqualTo(201);
        assertThat(simulator.moneyMovements("before")).isEqualTo(1);
    }

    @Test
    void failAfterChargeBehavesLikePm5xxAfterCharge() throws Exception {
        simulator.configure(SimulatorConfig.defaults().withFaultRates(0, 1, 0));

        assertThat(client.charge("after", chargeJson("pm_ok")).statusCode()).isEqualTo(500);
        assertThat(client.charge("after", chargeJson("pm_ok")).statusCode()).isEqualTo(201);
        assertThat(simulator.moneyMovements("after")).isEqualTo(1);
    }

    @Test
    void afterChargeFaultsKeepADeclineADecline() throws Exception {
        simulator.configure(SimulatorConfig.defaults().withFaultRates(0, 1, 0));

        assertThat(client.charge("declined", chargeJson("pm_declined")).statusCode())
                .isEqualTo(500);
        assertThat(client.charge("declined", chargeJson("pm_declined")).statusCode())
                .isEqualTo(402);
        assertThat(simulator.moneyMovements("declined")).isZero();
    }

    @Test
    void timeoutAfterChargeBehavesLikePmTimeoutAfterCharge() throws Exception {
        simulator.configure(
                SimulatorConfig.defaults().withTimeoutHangMillis(2_000).withFaultRates(0, 0, 1));

        assertThatThrownBy(() -> client.charge("timeout", chargeJson("pm_ok"), Duration.ofMillis(200)))
                .isInstanceOf(HttpTimeoutException.class);
        assertThat(client.charge("timeout", chargeJson("pm_ok")).statusCode()).isEqualTo(201);
        assertThat(simulator.moneyMovements("timeout")).isEqualTo(1);
    }

    @Test
    void ratesAreShares() throws Exception {
        simulator.configure(SimulatorConfig.defaults().withFaultRates(0.5, 0, 0));
        int failures = 0;
        for (int i = 0; i < 200; i++) {
            if (client.charge("share-" + i, chargeJson("pm_ok")).statusCode() == 503) {
                failures++;
            }
        }
        // Binomial(200, 0.5): outside 60..140 happens with probability below 1e-8.
        assertThat(failures).isBetween(60, 140);
    }

    @Test
    void latencyDelaysFreshChargesOnly() throws Exception {
        simulator.configure(SimulatorConfig.defaults().withLatency(120, 120));
        long started = System.nanoTime();
        client.charge("latency", chargeJson("pm_ok"));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(120));

        started = System.nanoTime();
        HttpResponse<String> replay = client.charge("latency", chargeJson("pm_ok"));
        assertThat(replay.statusCode()).isEqualTo(201);
        assertThat(json(replay).get("status").stringValue()).isEqualTo("succeeded");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(120));
    }
}

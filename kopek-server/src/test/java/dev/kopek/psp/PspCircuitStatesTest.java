package dev.kopek.psp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.MutableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The circuit's states on Kopek's clock: unknowns open it, declines do not, the wait and good answers close it. */
class PspCircuitStatesTest {

    private final MutableClock clock = new MutableClock();
    private final PspCircuit circuit = new PspCircuit(
            "psp", new PspCircuitProperties(50, 4, 4, Duration.ofMinutes(1), 2), new SimpleMeterRegistry(), clock);

    @Test
    void unknownsOpenItAndItRefusesUntilTheWaitIsOverThenGoodAnswersCloseIt() {
        for (int i = 0; i < 4; i++) {
            assertThat(circuit.refusal()).isEmpty();
            circuit.record(new ChargeOutcome.Unknown("503"), 1_000);
        }
        assertThat(circuit.state()).isEqualTo("open");
        assertThat(circuit.refusal()).contains(Duration.ofMinutes(1));

        clock.advance(Duration.ofSeconds(61));
        assertThat(circuit.refusal()).isEmpty();
        assertThat(circuit.state()).isEqualTo("half_open");
        circuit.record(new ChargeOutcome.Succeeded("ch_1"), 1_000);
        assertThat(circuit.refusal()).isEmpty();
        circuit.record(new ChargeOutcome.Succeeded("ch_2"), 1_000);

        assertThat(circuit.state()).isEqualTo("closed");
    }

    @Test
    void declinesRefusalsAndCustomerActionsAreTheProviderWorkingNotFailing() {
        for (int i = 0; i < 12; i++) {
            circuit.record(
                    switch (i % 3) {
                        case 0 -> new ChargeOutcome.Declined("card_declined", "ch");
                        case 1 -> new ChargeOutcome.Failed("400");
                        default ->
                            new ChargeOutcome.Unknown(
                                    "requires_action", new NextAction("redirect_to_url", "https://x"));
                    },
                    1_000);
        }
        assertThat(circuit.state()).isEqualTo("closed");
        assertThat(circuit.refusal()).isEmpty();
    }
}

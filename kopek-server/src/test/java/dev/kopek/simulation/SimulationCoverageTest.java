package dev.kopek.simulation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.simulator.AcquirerSimulator;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * What the seeds of {@code ./mvnw verify} exercise (issue 10 §3): the generator draws from every fault token and every
 * armable fault the simulator has (a token added to the simulator and not to the generator fails here), and seeds
 * 1..{@link SystemSimulationTest#CI_SEEDS} together contain every kind of step the issue lists — each token, each
 * armed fault on a capture, a void and a refund, a crash after the PSP answered for every operation kind, retries
 * through the second instance, new keys for a reference, every webhook delivery order, every clock jump, disputes
 * opened, won and lost. Pure: it generates the steps and runs nothing.
 */
class SimulationCoverageTest {

    @Test
    void theGeneratorDrawsFromEveryTokenAndEveryArmableFaultOfTheSimulator() {
        assertThat(new TreeSet<>(List.of(OpGenerator.METHODS)))
                .isEqualTo(new TreeSet<>(AcquirerSimulator.paymentMethodTokens()));
        assertThat(new TreeSet<>(List.of(OpGenerator.FAULTS)))
                .isEqualTo(new TreeSet<>(AcquirerSimulator.armableFaults()));
    }

    @Test
    void theSeedsOfTheBuildContainEveryKindOfStep() {
        Set<String> seen = new TreeSet<>();
        LongStream.rangeClosed(1, SystemSimulationTest.CI_SEEDS)
                .forEach(seed -> OpGenerator.generate(seed, KnownDefects.none()).forEach(op -> seen.addAll(kinds(op))));

        List<String> expected = new ArrayList<>();
        AcquirerSimulator.paymentMethodTokens().forEach(token -> expected.add("method " + token));
        for (String operation : List.of("capture", "void", "refund")) {
            AcquirerSimulator.armableFaults().forEach(fault -> expected.add(operation + " fault " + fault));
            expected.add(operation + " crash");
        }
        for (String mode : OpGenerator.DELIVERY) {
            expected.add("deliver " + mode);
        }
        for (String past : OpGenerator.JUMPS) {
            expected.add("jump " + past);
        }
        expected.addAll(List.of(
                "payment crash",
                "payment automatic",
                "payment manual",
                "payment via second",
                "webhook during the call",
                "retry same key via first",
                "retry same key via second",
                "new key same reference",
                "partial capture",
                "final capture",
                "oversized refund",
                "capture burst same key",
                "capture burst new keys",
                "refund burst same key",
                "refund burst new keys",
                "retry last via first",
                "retry last via second",
                "dispute opened",
                "dispute won",
                "dispute lost",
                "dispute decided later",
                "reconciler pass",
                "cross-merchant probe",
                "poisoned notifications",
                "notification racing the reconciler",
                "decision racing notifications"));
        assertThat(seen).containsAll(expected);
    }

    private static List<String> kinds(Op op) {
        List<String> kinds = new ArrayList<>();
        switch (op) {
            case Op.Create c -> {
                kinds.add("method " + c.method());
                kinds.add(c.manual() ? "payment manual" : "payment automatic");
                if (c.crash()) {
                    kinds.add("payment crash");
                }
                if (c.viaSecond()) {
                    kinds.add("payment via second");
                }
                if (c.webhookDuringCall()) {
                    kinds.add("webhook during the call");
                }
            }
            case Op.RetryCreate r -> kinds.add("retry same key via " + (r.viaSecond() ? "second" : "first"));
            case Op.NewKeySameReference n -> {
                kinds.add("method " + n.method());
                kinds.add("new key same reference");
            }
            case Op.Capture c -> {
                operation(kinds, "capture", c.fault(), c.crash());
                kinds.add(c.finalCapture() ? "final capture" : "partial capture");
            }
            case Op.Void v -> operation(kinds, "void", v.fault(), v.crash());
            case Op.Refund r -> {
                operation(kinds, "refund", r.fault(), r.crash());
                if (r.percent() > 100) {
                    kinds.add("oversized refund");
                }
            }
            case Op.Burst b -> kinds.add(b.kind() + " burst " + (b.sameKey() ? "same key" : "new keys"));
            case Op.RetryLast r -> kinds.add("retry last via " + (r.viaSecond() ? "second" : "first"));
            case Op.Dispute d -> {
                kinds.add("dispute opened");
                if (d.then() != null) {
                    kinds.add("dispute " + d.then());
                }
            }
            case Op.ResolveDispute r -> kinds.add("dispute decided later");
            case Op.Deliver d -> kinds.add("deliver " + d.mode());
            case Op.Reconcile r -> kinds.add("reconciler pass");
            case Op.Jump j -> kinds.add("jump " + j.past());
            case Op.Probe p -> kinds.add("cross-merchant probe");
            case Op.Poison p -> kinds.add("poisoned notifications");
            case Op.NotifyRacingReconciler r -> kinds.add("notification racing the reconciler");
            case Op.DecideRacingNotifications d -> kinds.add("decision racing notifications");
        }
        return kinds;
    }

    private static void operation(List<String> kinds, String operation, String fault, boolean crash) {
        if (fault != null) {
            kinds.add(operation + " fault " + fault);
        }
        if (crash) {
            kinds.add(operation + " crash");
        }
    }
}

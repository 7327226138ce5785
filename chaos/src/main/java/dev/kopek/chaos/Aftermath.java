package dev.kopek.chaos;

import dev.kopek.chaos.Evidence.PspCharge;
import dev.kopek.chaos.Evidence.PspMovement;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import tools.jackson.databind.JsonNode;

/**
 * The end of a run, once the faults stopped: wait for Kopek to finish what the faults left undecided, then gather
 * the evidence from the simulator, Kopek's database, the topic and the clients' log. Shared by the crash run and
 * the HA run, which audit the same laws.
 */
final class Aftermath {

    private Aftermath() {}

    /**
     * Waits (bounded) until nothing is undecided outside review, every outbox row reached the consumer, every
     * notification Kopek stored was applied, and the simulator has no webhook copy still under way.
     */
    static void drain(Simulator simulator, KopekRecord kopek, EventTap tap, Duration limit, Consumer<String> say) {
        long t0 = System.nanoTime();
        long deadline = t0 + limit.toNanos();
        long lastSay = 0;
        long quietSince = 0;
        while (System.nanoTime() < deadline) {
            long[] progress = kopek.progress();
            long webhooks = simulator.pendingWebhooks();
            long consumed = tap.events().stream()
                    .map(Evidence.TopicEvent::eventId)
                    .distinct()
                    .count();
            boolean quiet = progress[0] == 0
                    && progress[1] == 0
                    && consumed >= progress[2]
                    && progress[3] == 0
                    && webhooks == 0;
            // Quiet twice, a few seconds apart: webhooks the simulator still delivers may wake a payment up.
            if (quiet && quietSince == 0) {
                quietSince = System.nanoTime();
            } else if (!quiet) {
                quietSince = 0;
            }
            if (quiet && System.nanoTime() - quietSince >= 3_000_000_000L) {
                say.accept("quiet after " + (System.nanoTime() - t0) / 1_000_000_000L
                        + " s: nothing undecided outside review, " + progress[2] + " events all on the topic");
                return;
            }
            if (System.nanoTime() - lastSay > 10_000_000_000L) {
                lastSay = System.nanoTime();
                say.accept("draining: " + progress[0] + " undecided outside review, " + progress[1]
                        + " outbox rows unpublished, " + consumed + "/" + progress[2] + " events consumed, "
                        + progress[3] + " notifications waiting, " + webhooks + " webhook copies under way");
            }
            Pause.millis(500);
        }
        say.accept("drain timed out after " + limit.toSeconds() + " s; auditing what is there");
    }

    static Evidence evidence(Simulator simulator, KopekRecord kopek, EventTap tap, ClientLog log) {
        List<PspCharge> charges = stream(simulator.charges())
                .map(c -> new PspCharge(
                        Json.text(c, "id"),
                        Json.text(c, "idempotency_key"),
                        Json.text(c, "reference"),
                        Json.text(c, "status")))
                .toList();
        List<PspMovement> movements = stream(simulator.movements())
                .map(m -> new PspMovement(
                        Json.text(m, "id"),
                        Json.text(m, "charge_id"),
                        Json.text(m, "type"),
                        m.path("amount").asLong(),
                        Json.text(m, "idempotency_key"),
                        "succeeded".equals(Json.text(m, "status"))))
                .toList();
        return new Evidence(
                charges,
                movements,
                kopek.payments(),
                kopek.operations(),
                kopek.disputes(),
                kopek.reviews(),
                kopek.ledgerTotals(),
                kopek.unbalancedTransactions(),
                kopek.stuckKeys(),
                kopek.outbox(),
                tap.events(),
                log.all());
    }

    private static Stream<JsonNode> stream(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false);
    }
}

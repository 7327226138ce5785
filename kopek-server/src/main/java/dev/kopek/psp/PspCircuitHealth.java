package dev.kopek.psp;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * The circuit's state on {@code /actuator/health/psp}. Its statuses are not in the root's status order, so an open
 * circuit never makes Kopek itself look down: captures, refunds, lookups and the reconciler must keep running while
 * the PSP fails, and a load balancer watching {@code /actuator/health} must keep sending them.
 */
final class PspCircuitHealth implements HealthIndicator {

    static final Status OPEN = new Status("CIRCUIT_OPEN", "new payments are refused with 503 psp_unavailable");
    static final Status HALF_OPEN = new Status("CIRCUIT_HALF_OPEN", "trial payments decide whether it closes");

    private final PspCircuit circuit;

    PspCircuitHealth(PspCircuit circuit) {
        this.circuit = circuit;
    }

    @Override
    public Health health() {
        return switch (circuit.state()) {
            case "open", "forced_open" -> Health.status(OPEN).build();
            case "half_open" -> Health.status(HALF_OPEN).build();
            default -> Health.up().build();
        };
    }
}

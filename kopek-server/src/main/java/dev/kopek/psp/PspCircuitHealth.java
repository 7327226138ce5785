package dev.kopek.psp;

import java.util.Collection;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * The circuits' state on {@code /actuator/health/psp}: the worst of every PSP's. Its statuses are not in the root's
 * status order, so an open circuit never makes Kopek itself look down: captures, refunds, lookups and the reconciler
 * must keep running while a PSP fails, and a load balancer watching {@code /actuator/health} must keep sending them.
 */
final class PspCircuitHealth implements HealthIndicator {

    static final Status OPEN = new Status("CIRCUIT_OPEN", "new payments are refused with 503 psp_unavailable");
    static final Status HALF_OPEN = new Status("CIRCUIT_HALF_OPEN", "trial payments decide whether it closes");

    private final PspCircuits circuits;

    PspCircuitHealth(PspCircuits circuits) {
        this.circuits = circuits;
    }

    @Override
    public Health health() {
        Collection<String> states = circuits.states().values();
        if (states.contains("open") || states.contains("forced_open")) {
            return Health.status(OPEN).build();
        }
        return states.contains("half_open")
                ? Health.status(HALF_OPEN).build()
                : Health.up().build();
    }
}

package dev.kopek.psp.web;

import dev.kopek.platform.Audience;
import dev.kopek.psp.PaymentProvider;
import dev.kopek.psp.PspCircuit;
import dev.kopek.psp.PspCircuits;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /v1/ops/psp}: Kopek's configured PSP (the default for merchants that name none), its key window and its
 * circuit's state, and the state of every PSP's circuit in use, for admins.
 */
@RestController
@Audience(Audience.Kind.ADMIN)
class PspStatusController {

    private final PaymentProvider psp;
    private final PspCircuit circuit;
    private final PspCircuits circuits;

    PspStatusController(PaymentProvider psp, PspCircuit circuit, PspCircuits circuits) {
        this.psp = psp;
        this.circuit = circuit;
        this.circuits = circuits;
    }

    @GetMapping("/v1/ops/psp")
    Map<String, Object> status() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("provider", psp.name());
        body.put("circuit", circuit.state());
        body.put("key_window_seconds", psp.contract().keyWindow().toSeconds());
        // One circuit per account: Kopek's configured one ("simulator", "stripe") and each merchant's own account
        // at a PSP ("stripe:mer_…"), made when the account is first used on this instance.
        body.put("circuits", circuits.states());
        return body;
    }
}

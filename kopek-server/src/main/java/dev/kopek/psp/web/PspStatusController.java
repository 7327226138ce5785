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
        // Merchants on their own PSP account share that PSP's circuit; each PSP in use has one.
        body.put("circuits", circuits.states());
        return body;
    }
}

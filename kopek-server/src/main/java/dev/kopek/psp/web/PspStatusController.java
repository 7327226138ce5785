package dev.kopek.psp.web;

import dev.kopek.platform.Audience;
import dev.kopek.psp.PaymentProvider;
import dev.kopek.psp.PspCircuit;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /v1/ops/psp}: which PSP Kopek uses, its key window and its circuit's state, for admins. */
@RestController
@Audience(Audience.Kind.ADMIN)
class PspStatusController {

    private final PaymentProvider psp;
    private final PspCircuit circuit;

    PspStatusController(PaymentProvider psp, PspCircuit circuit) {
        this.psp = psp;
        this.circuit = circuit;
    }

    @GetMapping("/v1/ops/psp")
    Map<String, Object> status() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("provider", psp.name());
        body.put("circuit", circuit.state());
        body.put("key_window_seconds", psp.contract().keyWindow().toSeconds());
        return body;
    }
}

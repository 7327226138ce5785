package dev.kopek.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.money.PaymentId;
import dev.kopek.support.Api;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 10, defect 5 (L9): a capture or void the PSP declines, or whose outcome is unknown, is announced like one
 * that succeeded — {@code capture.failed}, {@code capture.unknown}, {@code void.failed}, {@code void.unknown} — in
 * the order of the operation's versions.
 */
class OperationEventsTest extends LifecycleSupport {

    @Test
    void aDeclinedCaptureAndADeclinedVoidEmitTheirFailedEvents() {
        Api api = newMerchant();
        var authorized = authorize(api, newReference(), 6_000);
        String id = authorized.get("id").asString();
        String charge = authorized.get("psp_reference").asString();

        SIMULATOR.armFault("capture", charge, "declined", 1);
        assertThat(capture(api, id, "{\"amount\":6000}").status()).isBetween(400, 499);
        SIMULATOR.armFault("void", charge, "declined", 1);
        assertThat(voidIt(api, id).status()).isBetween(400, 499);

        assertThat(events(id, "capture")).containsExactly("capture.pending", "capture.failed");
        assertThat(events(id, "void")).containsExactly("void.pending", "void.failed");
        assertThat(payment(api, id).get("status").asString()).isEqualTo("authorized");
    }

    @Test
    void anUnknownCaptureAndAnUnknownVoidEmitTheirUnknownEvents() {
        Api api = newMerchant();
        var toCapture = authorize(api, newReference(), 6_000);
        SIMULATOR.armFault("capture", toCapture.get("psp_reference").asString(), "5xx_after_success", 1);
        assertThat(capture(api, toCapture.get("id").asString(), "{\"amount\":6000}")
                        .status())
                .isEqualTo(202);

        var toVoid = authorize(api, newReference(), 6_000);
        SIMULATOR.armFault("void", toVoid.get("psp_reference").asString(), "5xx_after_success", 1);
        assertThat(voidIt(api, toVoid.get("id").asString()).status()).isEqualTo(202);

        assertThat(events(toCapture.get("id").asString(), "capture"))
                .containsExactly("capture.pending", "capture.unknown");
        assertThat(events(toVoid.get("id").asString(), "void")).containsExactly("void.pending", "void.unknown");
    }

    /** The event types recorded for a payment's operations of one kind, in sequence order. */
    private List<String> events(String paymentId, String kind) {
        return jdbc.sql("""
                SELECT o.event_type FROM outbox o JOIN payment_operations po ON po.id = o.resource_id
                 WHERE po.payment_id = :p AND po.kind = :kind ORDER BY o.sequence
                """)
                .param("p", PaymentId.parse(paymentId).orElseThrow().value())
                .param("kind", kind)
                .query(String.class)
                .list();
    }
}

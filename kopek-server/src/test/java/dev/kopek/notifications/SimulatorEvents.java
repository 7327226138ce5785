package dev.kopek.notifications;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.simulator.WebhookSignature;
import java.time.Clock;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;

/** The simulator's notifications as a test builds them, signed and received through Kopek's inbox. */
final class SimulatorEvents {

    private SimulatorEvents() {}

    /** A {@code charge.*} event about the charge sent under {@code providerKey}. */
    static String charge(Clock clock, String type, String chargeId, String providerKey) {
        String status = type.substring("charge.".length());
        return "{\"id\":\"evt_" + UUID.randomUUID() + "\",\"type\":\"" + type + "\",\"created\":"
                + clock.instant().getEpochSecond() + ",\"data\":{\"id\":\"" + chargeId
                + "\",\"object\":\"charge\",\"status\":\"" + status + "\",\"amount\":100,\"currency\":\"EUR\","
                + "\"idempotency_key\":\"" + providerKey + "\"}}";
    }

    /** The provider key a payment was sent under, which the PSP's notifications name. */
    static String providerKey(JdbcClient jdbc, UUID payment) {
        return jdbc.sql("SELECT provider_key FROM payments WHERE id = :p")
                .param("p", payment)
                .query(String.class)
                .single();
    }

    /** What the inbox made of a notification: its outcome, or {@code waiting} while it is not done. */
    static String outcome(JdbcClient jdbc, String eventId) {
        return jdbc.sql("SELECT coalesce(outcome, 'waiting') FROM psp_notifications WHERE event_id = :e")
                .param("e", eventId)
                .query(String.class)
                .single();
    }

    /** Receives {@code body} signed now with the simulator's secret; its event id. */
    static String deliver(NotificationInbox inbox, Clock clock, String body) {
        String signature =
                WebhookSignature.header(PspWebhookTest.SECRET, clock.instant().getEpochSecond(), body);
        assertThat(inbox.receive(signature, body)).isEqualTo(NotificationInbox.Receipt.ACCEPTED);
        return body.substring(7, body.indexOf('"', 7));
    }
}

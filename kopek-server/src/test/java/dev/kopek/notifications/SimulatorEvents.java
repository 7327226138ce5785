package dev.kopek.notifications;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.simulator.WebhookSignature;
import java.time.Clock;
import java.util.UUID;

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

    /** Receives {@code body} signed now with the simulator's secret; its event id. */
    static String deliver(NotificationInbox inbox, Clock clock, String body) {
        String signature =
                WebhookSignature.header(PspWebhookTest.SECRET, clock.instant().getEpochSecond(), body);
        assertThat(inbox.receive(signature, body)).isEqualTo(NotificationInbox.Receipt.ACCEPTED);
        return body.substring(7, body.indexOf('"', 7));
    }
}

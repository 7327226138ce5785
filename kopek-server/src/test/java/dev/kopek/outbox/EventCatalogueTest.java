package dev.kopek.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.disputes.DisputeStatus;
import dev.kopek.disputes.InquiryStatus;
import dev.kopek.payments.domain.OperationKind;
import dev.kopek.payments.domain.OperationStatus;
import dev.kopek.payments.domain.PaymentStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Issue 10, defect 5: the subscribable event types are the types the code emits. Every status a payment, capture,
 * void or refund can enter is announced as {@code <resource>.<status>} (a payment is never announced as pending: it
 * is announced as created), and so is every state of a dispute and an inquiry (their tables name the event), plus
 * the few named changes below; the catalogue, the API page (docs/api.md) and the OpenAPI document must list exactly
 * these.
 */
class EventCatalogueTest {

    static Set<String> emitted() {
        Set<String> types = new TreeSet<>();
        for (PaymentStatus status : PaymentStatus.values()) {
            if (status != PaymentStatus.PENDING) {
                types.add("payment." + status.name().toLowerCase(Locale.ROOT));
            }
        }
        types.add("payment.created");
        types.add("payment.authorization_closed");
        // Entering UNKNOWN while the PSP waits for the customer (3-D Secure) is announced as what it means.
        types.add("payment.requires_action");
        for (OperationKind kind : OperationKind.values()) {
            for (OperationStatus status : OperationStatus.values()) {
                types.add(kind.apiName() + "." + status.apiName());
            }
        }
        for (DisputeStatus status : DisputeStatus.values()) {
            types.add(status.eventType());
        }
        // An inquiry (the issuer asks; nothing withdrawn) is announced when it opens and when it closes; its
        // escalation is announced as the chargeback's dispute.opened.
        for (InquiryStatus status : InquiryStatus.values()) {
            status.eventType().ifPresent(types::add);
        }
        types.add(EventTypes.ENDPOINT_DISABLED);
        return types;
    }

    @Test
    void subscribableTypesAreExactlyTheEmittedTypes() {
        assertThat(EventTypes.known()).isEqualTo(emitted());
    }

    /** The OpenAPI document is generated from EventTypes (one webhook per type): ApiDocumentTest checks it. */
    @Test
    void theApiPagePublishesEveryType() throws IOException {
        String page = Files.readString(Path.of("../docs/api.md"));
        for (String type : emitted()) {
            assertThat(page).as("docs/api.md lists " + type).contains("`" + type + "`");
        }
    }
}

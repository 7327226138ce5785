package dev.kopek.payments.audit;

import dev.kopek.outbox.EventSequences;
import dev.kopek.payments.jdbc.PaymentSlices;
import dev.kopek.payments.jdbc.PaymentSlices.OperationRow;
import dev.kopek.payments.jdbc.PaymentSlices.PaymentRow;
import dev.kopek.platform.InvariantCheck;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * L9 in production: every state change of a payment, capture, void or refund wrote its event, so a resource's last
 * event carries its current version. Walks payments and then operations (cursor {@code payment:<id>} or
 * {@code operation:<id>}); the outbox answers for its own table ({@link EventSequences}). The auditor reads both in
 * one snapshot. A resource untouched for longer than the outbox keeps events is skipped: its events may be gone.
 */
@Component
class StateChangesHaveEventsCheck implements InvariantCheck {

    private static final String PAYMENTS = "payment:";
    private static final String OPERATIONS = "operation:";

    private final PaymentSlices slices;
    private final EventSequences events;

    StateChangesHaveEventsCheck(PaymentSlices slices, EventSequences events) {
        this.slices = slices;
        this.events = events;
    }

    @Override
    public String name() {
        return "state_changes_have_events";
    }

    @Override
    public String law() {
        return "L9: every state change of a payment or operation has its event";
    }

    @Override
    public long total() {
        return slices.paymentCount() + slices.operationCount();
    }

    @Override
    public Slice check(String after, int limit) {
        Instant keptSince = events.keptSince();
        List<Finding> findings = new ArrayList<>();
        if (after == null || after.startsWith(PAYMENTS)) {
            List<PaymentRow> rows = slices.payments(after == null ? null : after.substring(PAYMENTS.length()), limit);
            List<PaymentRow> recent =
                    rows.stream().filter(p -> p.updatedAt().isAfter(keptSince)).toList();
            Map<UUID, Long> last =
                    events.last("payment", recent.stream().map(PaymentRow::id).toList());
            for (PaymentRow p : recent) {
                missing("payment", p.id(), p.merchant(), p.id(), p.version(), last)
                        .ifPresent(findings::add);
            }
            if (rows.size() == limit) {
                return new Slice(rows.size(), PAYMENTS + rows.getLast().id(), findings);
            }
            // The payments are done: the rest of this slice starts the operations.
            Slice operations = operations(null, limit - rows.size(), keptSince);
            findings.addAll(operations.findings());
            return new Slice(rows.size() + operations.rows(), operations.last(), findings);
        }
        return operations(after.substring(OPERATIONS.length()), limit, keptSince);
    }

    private Slice operations(String after, int limit, Instant keptSince) {
        List<OperationRow> rows = slices.operations(after, limit);
        List<Finding> findings = new ArrayList<>();
        for (String kind : List.of("capture", "void", "refund")) {
            List<OperationRow> recent = rows.stream()
                    .filter(op -> op.kind().equals(kind) && op.updatedAt().isAfter(keptSince))
                    .toList();
            Map<UUID, Long> last =
                    events.last(kind, recent.stream().map(OperationRow::id).toList());
            for (OperationRow op : recent) {
                missing(kind, op.id(), op.merchant(), op.payment(), op.version(), last)
                        .ifPresent(findings::add);
            }
        }
        String position = rows.isEmpty()
                ? OPERATIONS + after
                : OPERATIONS + rows.getLast().id();
        return new Slice(rows.size(), after == null && rows.isEmpty() ? null : position, findings);
    }

    private static Optional<Finding> missing(
            String type, UUID id, UUID merchant, UUID payment, long version, Map<UUID, Long> last) {
        Long sequence = last.get(id);
        if (sequence != null && sequence == version) {
            return Optional.empty();
        }
        return Optional.of(new Finding(
                type + " " + id + " events",
                id,
                merchant,
                payment,
                type + " " + id + " is at version " + version + " but its last event is "
                        + (sequence == null ? "missing" : "sequence " + sequence),
                Excuse.NONE));
    }
}

package dev.kopek.support;

import dev.kopek.events.BusinessEvent;
import dev.kopek.events.MoneyMovement;
import dev.kopek.events.RecordedEvent;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.springframework.context.event.EventListener;

/** Records every business event the application writes and every money movement it publishes, for tests to count. */
public final class EventRecorder {

    private final ConcurrentLinkedQueue<BusinessEvent> events = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<MoneyMovement> movements = new ConcurrentLinkedQueue<>();

    @EventListener
    void on(RecordedEvent recorded) {
        events.add(recorded.event());
    }

    @EventListener
    void on(MoneyMovement movement) {
        movements.add(movement);
    }

    public List<String> typesFor(String publicId) {
        return events.stream()
                .filter(e -> e.publicId().equals(publicId))
                .map(BusinessEvent::type)
                .toList();
    }

    public List<MoneyMovement> movementsFor(UUID paymentId) {
        return movements.stream().filter(m -> m.paymentId().equals(paymentId)).toList();
    }
}

package dev.kopek.outbox.relay;

import java.util.Map;
import java.util.Set;
import org.apache.kafka.connect.storage.MemoryOffsetBackingStore;

/**
 * Debezium's offsets kept in memory only. The durable position is the replication slot's confirmed LSN, which the
 * engine advances after {@link CdcRelay} has had every record of a batch acknowledged; a restarted engine without
 * offsets streams from that LSN, so nothing unacknowledged is skipped. Instantiated by Debezium by class name.
 */
public class InMemoryOffsets extends MemoryOffsetBackingStore {

    @Override
    public Set<Map<String, Object>> connectorPartitions(String connectorName) {
        return Set.of();
    }
}

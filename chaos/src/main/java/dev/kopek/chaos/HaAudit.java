package dev.kopek.chaos;

import dev.kopek.chaos.ClientLog.Ack;
import dev.kopek.chaos.Evidence.Operation;
import dev.kopek.chaos.Evidence.Payment;
import dev.kopek.chaos.Evidence.TopicEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import tools.jackson.databind.JsonNode;

/**
 * What the HA run adds to the {@link Auditor}: no write a client was acknowledged is missing from the database
 * after the failovers (judged against the recorded history, so the driver needs no copy of Kopek's state
 * machines), and, per fault, how long writes stopped and how fast payments went before, during and after.
 * Pure, so each check is shown to fail on data that breaks it ({@code HaAuditTest}).
 */
final class HaAudit {

    /** A fault the run injected: its kind, on what, when it began and when the system was whole again. */
    record Fault(String kind, String detail, long startNanos, long recoveredNanos) {
        boolean database() {
            return kind.equals(FAILOVER) || kind.equals(SWITCHOVER) || kind.equals(FREEZE);
        }
    }

    /**
     * One fault's figures: the longest time without an acknowledged write around it (the last acknowledged write
     * before, the first after), and acknowledged payments per second before, during and after it.
     */
    record Gap(Fault fault, long gapMillis, double before, double during, double after) {}

    static final String FAILOVER = "failover";
    static final String SWITCHOVER = "switchover";
    static final String FREEZE = "freeze";
    static final String BROKER_KILL = "broker_kill";
    static final String KOPEK_KILL = "kopek_kill";
    static final String ETCD_KILL = "etcd_kill";
    private static final Set<String> NON_FINAL = Set.of("PENDING", "UNKNOWN");
    private static final String PROCESSING = "processing";
    /** Statuses an answer may show before anything is recorded as decided: every later one follows them. */
    private static final Set<String> UNRECORDED = Set.of(PROCESSING, "requires_action");

    private static final long SECOND = 1_000_000_000L;
    private static final long RATE_WINDOW = 15 * SECOND;
    private static final long GAP_WINDOW = 90 * SECOND;

    /** What HaRun tells Kopek to give its topic: one broker may die, and every acknowledged event is on two. */
    static final int TOPIC_REPLICATION_FACTOR = 3;

    static final int TOPIC_MIN_INSYNC_REPLICAS = 2;

    private HaAudit() {}

    /**
     * Kopek created the run's topic, told to replicate it {@value #TOPIC_REPLICATION_FACTOR} times with
     * {@code min.insync.replicas} {@value #TOPIC_MIN_INSYNC_REPLICAS}, on brokers whose defaults are 1 and 1: the
     * topic read back from the cluster must show exactly that, or an event acknowledged before a broker's loss may
     * be gone and the run's other figures prove less than they claim.
     */
    static List<String> topicReplication(KafkaCluster.TopicSettings read, int partitions) {
        if (read.partitions() == partitions
                && read.replicationFactor() == TOPIC_REPLICATION_FACTOR
                && read.minInsyncReplicas() == TOPIC_MIN_INSYNC_REPLICAS) {
            return List.of();
        }
        return List.of("the topic Kopek created has " + read.partitions() + " partitions, replication factor "
                + read.replicationFactor() + ", min.insync.replicas " + read.minInsyncReplicas() + "; expected "
                + partitions + ", " + TOPIC_REPLICATION_FACTOR + ", " + TOPIC_MIN_INSYNC_REPLICAS);
    }

    /**
     * Every 2xx a client received for a payment, capture, void or refund names a resource that is in the
     * database, whose recorded history (its events on the topic, and its status now) holds the status it was
     * answered with, and which has no less money captured or refunded than the answer said. A write lost in a
     * failover fails this: its row, and the event written in the same transaction, are both gone.
     */
    static List<String> lost(
            List<Ack> acks, List<Payment> payments, List<Operation> operations, List<TopicEvent> topic) {
        Map<UUID, Payment> paymentById = new HashMap<>();
        payments.forEach(p -> paymentById.put(p.id(), p));
        Map<UUID, Operation> operationById = new HashMap<>();
        operations.forEach(o -> operationById.put(o.id(), o));
        Map<String, Set<String>> history = new HashMap<>();
        topic.forEach(t ->
                history.computeIfAbsent(t.publicId(), id -> new HashSet<>()).add(String.valueOf(t.status())));
        List<String> lost = new ArrayList<>();
        for (Ack ack : acks) {
            JsonNode body = Json.tryParse(ack.body());
            String object = Json.text(body, "object");
            String problem;
            if ("payment".equals(object)) {
                problem = paymentLost(body, paymentById, history);
            } else if ("refund".equals(object)) {
                problem = refundLost(body, operationById, history);
            } else {
                problem = "an answer naming no payment or refund: " + ack.body();
            }
            if (problem != null) {
                lost.add(ack.operation() + " key " + ack.key() + ": " + problem);
            }
        }
        return lost;
    }

    private static String paymentLost(
            JsonNode answered, Map<UUID, Payment> paymentById, Map<String, Set<String>> history) {
        String id = Json.text(answered, "id");
        Payment p = paymentById.get(uuid(id));
        if (p == null) {
            return id + " was answered but is not in the database";
        }
        String status = String.valueOf(Json.text(answered, "status"));
        String now = NON_FINAL.contains(p.status()) ? PROCESSING : p.status().toLowerCase(Locale.ROOT);
        if (!UNRECORDED.contains(status) && !status.equals(now) && !recorded(history, id, status)) {
            return id + " was answered " + status + " but is " + now + " and no event of it says " + status;
        }
        long captured = answered.path("amount_captured").asLong();
        long refunded = answered.path("amount_refunded").asLong();
        if (p.captured() < captured || p.refunded() < refunded) {
            return id + " was answered captured/refunded " + captured + "/" + refunded + " but is " + p.captured() + "/"
                    + p.refunded();
        }
        return null;
    }

    private static String refundLost(
            JsonNode answered, Map<UUID, Operation> operationById, Map<String, Set<String>> history) {
        String id = Json.text(answered, "id");
        Operation op = operationById.get(uuid(id));
        if (op == null || !op.kind().equals("refund")) {
            return id + " was answered but is not in the database";
        }
        String status = String.valueOf(Json.text(answered, "status"));
        String now = NON_FINAL.contains(op.status()) ? "pending" : op.status().toLowerCase(Locale.ROOT);
        boolean kept = status.equals("pending") || status.equals(now) || recorded(history, id, status);
        return kept ? null : id + " was answered " + status + " but is " + now;
    }

    private static boolean recorded(Map<String, Set<String>> history, String publicId, String status) {
        return history.getOrDefault(publicId, Set.of()).contains(status);
    }

    /** The UUID behind a public id ({@code pay_<32 hex>}); null for anything else. */
    static UUID uuid(String publicId) {
        int underscore = publicId == null ? -1 : publicId.indexOf('_');
        if (underscore < 0 || publicId.length() - underscore - 1 != 32) {
            return null;
        }
        String hex = publicId.substring(underscore + 1);
        try {
            return new UUID(HexFormat.fromHexDigitsToLong(hex, 0, 16), HexFormat.fromHexDigitsToLong(hex, 16, 32));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * Per fault, the longest pause between two consecutive acknowledged writes from just before it until the next
     * fault (at most 90 s), and the rates of newly acknowledged payments: 15 s before, from the fault to its
     * recovery, 15 s after.
     */
    static List<Gap> gaps(List<Ack> acks, List<Fault> faults) {
        List<Long> writes = acks.stream().map(Ack::answeredNanos).sorted().toList();
        List<Long> payments = firstPaymentAcks(acks);
        List<Fault> ordered = faults.stream()
                .sorted(Comparator.comparingLong(Fault::startNanos))
                .toList();
        List<Gap> out = new ArrayList<>();
        for (int i = 0; i < ordered.size(); i++) {
            Fault f = ordered.get(i);
            long end = Math.min(
                    f.startNanos() + GAP_WINDOW,
                    i + 1 < ordered.size() ? ordered.get(i + 1).startNanos() : Long.MAX_VALUE);
            long from = f.startNanos() - SECOND;
            long previous =
                    writes.stream().filter(t -> t <= from).reduce((a, b) -> b).orElse(from);
            long gap = 0;
            boolean resumed = false;
            for (long t : writes) {
                if (t > from && t <= end) {
                    gap = Math.max(gap, t - previous);
                    previous = t;
                    resumed |= t > f.startNanos();
                }
            }
            if (!resumed) {
                // No write was acknowledged after the fault within the window: the gap lasts at least that long.
                gap = Math.max(gap, end == Long.MAX_VALUE ? f.recoveredNanos() - previous : end - previous);
            }
            long during = Math.max(SECOND, f.recoveredNanos() - f.startNanos());
            out.add(new Gap(
                    f,
                    gap / 1_000_000,
                    rate(payments, f.startNanos() - RATE_WINDOW, RATE_WINDOW),
                    rate(payments, f.startNanos(), during),
                    rate(payments, f.recoveredNanos(), RATE_WINDOW)));
        }
        return out;
    }

    private static List<Long> firstPaymentAcks(List<Ack> acks) {
        Set<String> seen = new HashSet<>();
        return acks.stream()
                .filter(a -> a.operation().equals("payment"))
                .sorted(Comparator.comparingLong(Ack::answeredNanos))
                .filter(a -> seen.add(a.key()))
                .map(Ack::answeredNanos)
                .toList();
    }

    private static double rate(List<Long> times, long from, long length) {
        long n = times.stream().filter(t -> t >= from && t < from + length).count();
        return n * (double) SECOND / length;
    }

    /** How many operations (operation and key) were acknowledged at least once. */
    static long acknowledged(List<Ack> acks) {
        return acks.stream().map(a -> a.operation() + " " + a.key()).distinct().count();
    }

    /** The p-th percentile (0–100) of the values, by nearest rank; 0 when there are none. */
    static long percentile(List<Long> values, int p) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Long> sorted = values.stream().sorted().toList();
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }
}

package dev.kopek.chaos;

import dev.kopek.chaos.HaAudit.Fault;
import dev.kopek.chaos.PatroniCluster.Node;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * The HA run's faults, each carried out on whatever leads at that moment and followed until the system is whole
 * again: the PostgreSQL primary crashed (kill -9 of Patroni and its postmaster), switched over, or frozen past
 * the leader key's TTL and resumed; a Kafka broker killed; a Kopek instance killed. Each returns the {@link Fault}
 * with its times; what went wrong beyond a slow recovery is kept as a violation.
 */
final class HaFaults {

    static final String DATABASE = "kopek";
    static final String PROBE_TABLE = "ha.probe";
    private static final Duration PROMOTION_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration REJOIN_TIMEOUT = Duration.ofSeconds(120);
    /** Longer than the brokers' session timeout (9 s), after which the controller fences a silent broker. */
    private static final Duration FENCE_TIMEOUT = Duration.ofSeconds(30);

    private final PatroniCluster db;
    private final KafkaCluster kafka;
    private final String topic;
    private final Figures figures;
    private final Consumer<String> say;
    private final List<String> violations = new ArrayList<>();
    private final List<String> probes = new ArrayList<>();

    HaFaults(PatroniCluster db, KafkaCluster kafka, String topic, Figures figures, Consumer<String> say) {
        this.db = db;
        this.kafka = kafka;
        this.topic = topic;
        this.figures = figures;
        this.say = say;
    }

    /** Faults that broke a promise: a write acknowledged by a deposed primary, a member that never came back. */
    List<String> violations() {
        return List.copyOf(violations);
    }

    /** What each freeze's probe of the deposed primary saw. */
    List<String> probes() {
        return List.copyOf(probes);
    }

    Fault run(String kind, Fleet fleet) {
        return switch (kind) {
            case HaAudit.FAILOVER -> crashPrimary();
            case HaAudit.SWITCHOVER -> switchover();
            case HaAudit.FREEZE -> freezePrimary();
            case HaAudit.BROKER_KILL -> killBroker();
            case HaAudit.KOPEK_KILL -> killKopek(fleet);
            case HaAudit.ETCD_KILL -> killEtcdLeader();
            default -> throw new IllegalArgumentException("no fault " + kind);
        };
    }

    /** kill -9 of the primary's Patroni and postmaster; once another node leads, the machine "reboots". */
    private Fault crashPrimary() {
        Node old = leader();
        long t0 = System.nanoTime();
        db.crash(old);
        Optional<Node> next = db.awaitNewLeader(old, PROMOTION_TIMEOUT);
        long promoted = System.nanoTime();
        db.restart(old);
        long whole = rejoined(old, "crash");
        String detail = old.name() + " → " + next.map(Node::name).orElse("none") + ", promoted after "
                + millis(promoted - t0) + " ms, old primary a replica again after " + millis(whole - t0) + " ms";
        return done(HaAudit.FAILOVER, detail, t0, next.isPresent() ? whole : promoted);
    }

    /** {@code patronictl switchover} from the leader to its synchronous standby. */
    private Fault switchover() {
        Node old = leader();
        Node candidate = db.syncStandby().orElseThrow(() -> new IllegalStateException("no synchronous standby"));
        long t0 = System.nanoTime();
        Commands.Outcome out = db.switchover(old, candidate);
        if (!out.ok()) {
            violations.add("switchover " + old.name() + " → " + candidate.name() + " failed: " + out.output());
        }
        Optional<Node> next = db.awaitNewLeader(old, PROMOTION_TIMEOUT);
        long promoted = System.nanoTime();
        long whole = rejoined(old, "switchover");
        String detail = old.name() + " → " + next.map(Node::name).orElse("none") + ", new leader after "
                + millis(promoted - t0) + " ms";
        return done(HaAudit.SWITCHOVER, detail, t0, whole);
    }

    /**
     * SIGSTOP of every process of the primary's node until another node has been promoted, then SIGCONT; at once
     * a probe writes to the deposed node directly. With strict synchronous mode that commit can never be
     * acknowledged (its synchronous standby now leads elsewhere), and once the node has rejoined its row must be
     * gone: pg_rewind drops what it wrote alone.
     */
    private Fault freezePrimary() {
        Node old = leader();
        long t0 = System.nanoTime();
        db.signal(old, "STOP");
        Optional<Node> next = db.awaitNewLeader(old, PROMOTION_TIMEOUT);
        long promoted = System.nanoTime();
        Pause.millis(2_000);
        String note = "probe-" + Long.toString(t0, 36);
        db.signal(old, "CONT");
        String probe = probeWrite(old, note);
        probes.add(old.name() + ": " + probe);
        long whole = rejoined(old, "freeze");
        Optional<Node> now = db.leader();
        if (now.isPresent() && now.get().name().equals(old.name())) {
            // Then the probe went to the leader of the day, and it is right that it was kept.
            violations.add("deposed primary " + old.name() + " took the leader key back from "
                    + next.map(Node::name).orElse("none") + " after it resumed");
        } else {
            if (probe.startsWith("acknowledged")) {
                violations.add("a write to deposed primary " + old.name() + " was acknowledged after the promotion");
            }
            long kept = count(PatroniCluster.nodeUrl(old, DATABASE, "connectTimeout=3&socketTimeout=10"), note)
                    + count(db.url(DATABASE, "connectTimeout=3&socketTimeout=10"), note);
            if (kept != 0) {
                violations.add("the probe written to deposed primary " + old.name() + " survived its rejoin (" + kept
                        + " rows)");
            }
        }
        String detail = old.name() + " frozen, " + next.map(Node::name).orElse("none") + " promoted after "
                + millis(promoted - t0) + " ms, probe " + probe + ", rejoined after " + millis(whole - t0) + " ms";
        return done(HaAudit.FREEZE, detail, t0, whole);
    }

    /**
     * kill -9 of a random broker, restarted once the others have fenced it (its partitions led elsewhere, its
     * replicas out of the in-sync sets); recovered once every replica is in sync again.
     */
    private Fault killBroker() {
        List<KafkaCluster.Broker> brokers = kafka.brokers();
        KafkaCluster.Broker victim = brokers.get(ThreadLocalRandom.current().nextInt(brokers.size()));
        long t0 = System.nanoTime();
        victim.process().kill();
        boolean fenced = kafka.awaitIsrWithout(topic, victim.id(), FENCE_TIMEOUT);
        long down = System.nanoTime();
        victim.process().start();
        boolean synced = kafka.awaitFullIsr(topic, REJOIN_TIMEOUT);
        if (!synced) {
            violations.add("broker " + victim.id() + " did not rejoin every in-sync replica set");
        }
        long whole = System.nanoTime();
        return done(
                HaAudit.BROKER_KILL,
                "broker " + victim.id() + (fenced ? ", out of every in-sync set after " : ", still in sync after ")
                        + millis(down - t0) + " ms, all replicas in sync again after " + millis(whole - t0) + " ms",
                t0,
                whole);
    }

    /**
     * kill -9 of the etcd member that leads the configuration store's Raft group, kept down for longer than the
     * leader key's TTL, then restarted. Two members of three are a quorum: Patroni must go on renewing the leader key
     * through them across etcd's own election, so the primary stays the primary and writes go on. A primary deposed
     * by the loss of one etcd member would make etcd a single point of failure again; it is a violation.
     */
    private Fault killEtcdLeader() {
        EtcdCluster etcd = db.etcd();
        EtcdCluster.Member victim =
                etcd.leader().orElseThrow(() -> new IllegalStateException("etcd reports no leader"));
        Node primary = leader();
        long t0 = System.nanoTime();
        victim.process().kill();
        Pause.millis(Duration.ofSeconds(PatroniCluster.TTL_SECONDS + 4).toMillis());
        Optional<Node> during = db.leader();
        long down = System.nanoTime();
        victim.process().start();
        if (!etcd.awaitHealthy(REJOIN_TIMEOUT)) {
            violations.add("etcd member " + victim.name() + " did not rejoin its cluster");
        }
        long whole = rejoined(primary, "etcd leader's kill");
        Optional<Node> after = db.leader();
        boolean kept = during.map(Node::name).equals(Optional.of(primary.name()))
                && after.map(Node::name).equals(Optional.of(primary.name()));
        if (!kept) {
            violations.add("the loss of etcd member " + victim.name() + " deposed primary " + primary.name()
                    + " (leader while it was down: " + during.map(Node::name).orElse("none") + ", after: "
                    + after.map(Node::name).orElse("none") + ")");
        }
        return done(
                HaAudit.ETCD_KILL,
                "etcd leader " + victim.name() + " down for " + millis(down - t0) + " ms, primary " + primary.name()
                        + (kept ? " kept" : " lost") + ", etcd whole again after " + millis(whole - t0) + " ms",
                t0,
                whole);
    }

    /** kill -9 of a random Kopek instance, restarted at once (another stays ready meanwhile). */
    private Fault killKopek(Fleet fleet) {
        long t0 = System.nanoTime();
        Fleet.Instance victim = fleet.killOne();
        if (victim == null) {
            say.accept("no Kopek instance could be killed: none other was ready");
            return done(HaAudit.KOPEK_KILL, "skipped", t0, System.nanoTime());
        }
        fleet.awaitReady(victim);
        long whole = System.nanoTime();
        return done(
                HaAudit.KOPEK_KILL,
                victim.process().name() + ", ready again after " + millis(whole - t0) + " ms",
                t0,
                whole);
    }

    private Node leader() {
        return db.leader().orElseThrow(() -> new IllegalStateException("no leader: " + db.members()));
    }

    /** Waits until the cluster is whole again with the old node back as a replica; the time it was, or now. */
    private long rejoined(Node old, String fault) {
        try {
            db.awaitHealthy();
        } catch (IllegalStateException e) {
            violations.add(old.name() + " did not rejoin after the " + fault + ": " + e.getMessage());
        }
        return System.nanoTime();
    }

    private Fault done(String kind, String detail, long start, long recovered) {
        figures.add("fault_" + kind);
        Fault f = new Fault(kind, detail, start, recovered);
        say.accept(kind + ": " + detail);
        return f;
    }

    /** One INSERT on one node, alone; what came of it. */
    private static String probeWrite(Node n, String note) {
        String url = PatroniCluster.nodeUrl(n, DATABASE, "connectTimeout=3&loginTimeout=5&socketTimeout=8");
        try (Connection c = DriverManager.getConnection(url, postgres());
                PreparedStatement s = c.prepareStatement("INSERT INTO " + PROBE_TABLE + " (note) VALUES (?)")) {
            s.setString(1, note);
            s.executeUpdate();
            return "acknowledged";
        } catch (SQLException e) {
            return "refused (" + e.getSQLState() + " " + firstLine(e.getMessage()) + ")";
        }
    }

    private static long count(String url, String note) {
        try (Connection c = DriverManager.getConnection(url, postgres());
                PreparedStatement s = c.prepareStatement("SELECT count(*) FROM " + PROBE_TABLE + " WHERE note = ?")) {
            s.setString(1, note);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("counting the probe on " + url + ": " + e.getMessage(), e);
        }
    }

    private static Properties postgres() {
        Properties props = new Properties();
        props.put("user", "postgres");
        return props;
    }

    private static String firstLine(String message) {
        return message == null ? "" : message.lines().findFirst().orElse("");
    }

    private static long millis(long nanos) {
        return nanos / 1_000_000;
    }
}

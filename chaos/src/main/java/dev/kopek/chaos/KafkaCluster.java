package dev.kopek.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;

/**
 * Three Kafka brokers in KRaft mode, each its own JVM and each both broker and controller (a quorum of three:
 * one may die), from the Kafka jars on the run's own class path. The topic is replicated three times with
 * {@code min.insync.replicas=2}, so with Kopek's {@code acks=all} an acknowledged event is on two brokers at least.
 */
final class KafkaCluster implements AutoCloseable {

    static final int PARTITIONS = 6;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    private static final List<String> JVM = List.of(
            "-Xmx320m", "-Xss512k", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:ActiveProcessorCount=2");

    /** One broker: its node id, client and controller ports, and its process. */
    record Broker(int id, int port, int controllerPort, ChildProcess process) {}

    private final List<Broker> brokers = new ArrayList<>();
    private final Path selfJar;
    private final Path root;
    private final String clusterId = Uuid.randomUuid().toString();

    KafkaCluster(Path workDir, Path selfJar) {
        this.selfJar = selfJar;
        this.root = workDir.resolve("kafka");
        List<int[]> ports = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            ports.add(new int[] {Ports.fixed(), Ports.fixed()});
        }
        String voters = "";
        for (int i = 1; i <= 3; i++) {
            voters += (i == 1 ? "" : ",") + i + "@127.0.0.1:" + ports.get(i - 1)[1];
        }
        try {
            Files.createDirectories(root);
            for (int i = 1; i <= 3; i++) {
                int port = ports.get(i - 1)[0];
                int controller = ports.get(i - 1)[1];
                Path props = root.resolve("broker-" + i + ".properties");
                Files.writeString(props, properties(i, port, controller, voters));
                ChildProcess process = ChildProcess.mainOf(
                        "kafka-" + i,
                        JVM,
                        selfJar,
                        "kafka.Kafka",
                        List.of(props.toString()),
                        Map.of(),
                        root.resolve("broker-" + i + ".log"));
                brokers.add(new Broker(i, port, controller, process));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String properties(int id, int port, int controller, String voters) {
        return """
                process.roles=broker,controller
                node.id=%d
                controller.quorum.voters=%s
                listeners=PLAINTEXT://127.0.0.1:%d,CONTROLLER://127.0.0.1:%d
                advertised.listeners=PLAINTEXT://127.0.0.1:%d
                controller.listener.names=CONTROLLER
                inter.broker.listener.name=PLAINTEXT
                listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
                log.dirs=%s
                num.partitions=%d
                default.replication.factor=3
                min.insync.replicas=2
                unclean.leader.election.enable=false
                offsets.topic.replication.factor=3
                transaction.state.log.replication.factor=3
                transaction.state.log.min.isr=2
                auto.create.topics.enable=false
                group.initial.rebalance.delay.ms=0
                """.formatted(id, voters, port, controller, port, root.resolve("data-" + id), PARTITIONS);
    }

    /** Formats each broker's storage with the one cluster id (Kafka's StorageTool), then starts all three. */
    void start() {
        for (Broker b : brokers) {
            List<String> format = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Dloader.main=kafka.tools.StorageTool",
                    "-cp",
                    selfJar.toString(),
                    "org.springframework.boot.loader.launch.PropertiesLauncher",
                    "format",
                    "-t",
                    clusterId,
                    "-c",
                    root.resolve("broker-" + b.id() + ".properties").toString()));
            Commands.Outcome out = Commands.run(format, Duration.ofSeconds(60));
            if (!out.ok()) {
                throw new IllegalStateException("formatting broker " + b.id() + " failed: " + out.output());
            }
        }
        brokers.forEach(b -> b.process().start());
        awaitBrokers(3, READY_TIMEOUT);
    }

    String bootstrapServers() {
        return brokers.stream().map(b -> "127.0.0.1:" + b.port()).collect(Collectors.joining(","));
    }

    List<Broker> brokers() {
        return brokers;
    }

    /** Kopek's topic: replication factor 3, at least 2 in-sync replicas for a write. */
    void createTopic(String topic) {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(
                            new NewTopic(topic, PARTITIONS, (short) 3).configs(Map.of("min.insync.replicas", "2"))))
                    .all()
                    .get(60, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("creating " + topic + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Waits until the cluster reports this many live brokers. */
    void awaitBrokers(int count, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (Broker b : brokers) {
                if (!b.process().alive()) {
                    throw new IllegalStateException(
                            "broker " + b.id() + " exited; see " + b.process().log());
                }
            }
            try (Admin admin = admin()) {
                if (admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size() >= count) {
                    return;
                }
            } catch (ExecutionException | TimeoutException e) {
                // not up yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            Pause.millis(500);
        }
        throw new IllegalStateException("Kafka did not reach " + count + " brokers within " + timeout.toSeconds()
                + " s; see the logs in " + root);
    }

    /**
     * Waits until every partition of the topic has all three replicas in sync again (a restarted broker caught
     * up); returns false at the deadline.
     */
    boolean awaitFullIsr(String topic, Duration timeout) {
        return await(topic, timeout, p -> p.isr().size() == 3);
    }

    /** Waits until no in-sync set of the topic holds the broker (the controller fenced it); false at the deadline. */
    boolean awaitIsrWithout(String topic, int brokerId, Duration timeout) {
        return await(topic, timeout, p -> p.isr().stream().noneMatch(n -> n.id() == brokerId));
    }

    private boolean await(String topic, Duration timeout, Predicate<TopicPartitionInfo> each) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try (Admin admin = admin()) {
                TopicDescription d = admin.describeTopics(List.of(topic))
                        .allTopicNames()
                        .get(5, TimeUnit.SECONDS)
                        .get(topic);
                if (d.partitions().stream().allMatch(each)) {
                    return true;
                }
            } catch (ExecutionException | TimeoutException e) {
                // a broker is still electing or catching up
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            Pause.millis(500);
        }
        return false;
    }

    private Admin admin() {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        return Admin.create(props);
    }

    @Override
    public void close() {
        brokers.forEach(b -> b.process().stop());
    }
}

package dev.kopek.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How big an HA run is. {@code ci} fits in about five minutes on 2 cores with cluster start: two crashes of the
 * primary, a switchover, a freeze, a broker kill, a Kopek kill and the etcd leader's kill, one after the other.
 * {@code long} crashes the primary twenty times, with four of each other fault between.
 *
 * @param faults the faults in the order they are done, each once the previous one has recovered
 * @param warmup load before the first fault
 * @param settle load between a recovery and the next fault
 * @param instances Kopek JVMs behind the balancer
 * @param workers concurrent merchant order flows
 * @param drain how long the end may wait for recovery to finish
 */
record HaSize(
        String name,
        List<String> faults,
        Duration warmup,
        Duration settle,
        int instances,
        int workers,
        Duration drain,
        Balancer.Faults balancerFaults) {

    long count(String kind) {
        return faults.stream().filter(kind::equals).count();
    }

    static HaSize of(String name) {
        Balancer.Faults faults = new Balancer.Faults(0.02, 0.02, 0.02);
        return switch (name) {
            case "ci" ->
                new HaSize(
                        "ci",
                        List.of(
                                HaAudit.FAILOVER,
                                HaAudit.BROKER_KILL,
                                HaAudit.SWITCHOVER,
                                HaAudit.KOPEK_KILL,
                                HaAudit.FREEZE,
                                HaAudit.ETCD_KILL,
                                HaAudit.FAILOVER),
                        Duration.ofSeconds(15),
                        Duration.ofSeconds(5),
                        2,
                        10,
                        Duration.ofSeconds(90),
                        faults);
            case "long" ->
                new HaSize(
                        "long",
                        longPlan(),
                        Duration.ofSeconds(20),
                        Duration.ofSeconds(10),
                        3,
                        16,
                        Duration.ofMinutes(3),
                        faults);
            default -> throw new IllegalArgumentException("--size is ci or long, not " + name);
        };
    }

    /** Twenty crashes of the primary; after every fifth, one switchover, freeze, broker kill, Kopek and etcd kill. */
    private static List<String> longPlan() {
        List<String> plan = new ArrayList<>();
        for (int round = 0; round < 4; round++) {
            for (int i = 0; i < 5; i++) {
                plan.add(HaAudit.FAILOVER);
            }
            plan.addAll(List.of(
                    HaAudit.SWITCHOVER, HaAudit.BROKER_KILL, HaAudit.FREEZE, HaAudit.KOPEK_KILL, HaAudit.ETCD_KILL));
        }
        return List.copyOf(plan);
    }
}

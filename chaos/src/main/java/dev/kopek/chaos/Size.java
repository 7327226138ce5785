package dev.kopek.chaos;

import java.time.Duration;

/**
 * How big a run is. {@code ci} fits both relay modes in about six minutes on 2 cores; {@code long} is 100,000
 * operations, shared by the modes run, with a kill every 20 s or so: on 2 cores each restart costs about 20 CPU
 * seconds, so a faster rhythm would spend the run restarting.
 *
 * @param load how long the clients run at most
 * @param operations stop earlier once this many logical operations were started in all modes (0: no limit)
 * @param workers concurrent merchant order flows
 * @param killEvery mean pause between two kill -9s
 * @param drain how long the end may wait for recovery to finish
 */
record Size(
        String name,
        Duration load,
        long operations,
        int workers,
        Duration killEvery,
        Duration drain,
        Balancer.Faults balancerFaults) {

    /** One mode's share of the operations. */
    Size perMode(int modes) {
        return new Size(name, load, operations / modes, workers, killEvery, drain, balancerFaults);
    }

    static Size of(String name) {
        Balancer.Faults faults = new Balancer.Faults(0.04, 0.04, 0.04);
        return switch (name) {
            case "ci" ->
                new Size("ci", Duration.ofSeconds(60), 0, 16, Duration.ofSeconds(6), Duration.ofSeconds(90), faults);
            case "long" ->
                new Size(
                        "long",
                        Duration.ofMinutes(60),
                        100_000,
                        48,
                        Duration.ofSeconds(20),
                        Duration.ofMinutes(5),
                        faults);
            default -> throw new IllegalArgumentException("--size is ci or long, not " + name);
        };
    }
}

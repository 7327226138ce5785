package dev.kopek.chaos;

import java.time.Duration;

/**
 * How big one relay mode's run is. {@code ci} fits both modes in about six minutes on 2 cores; {@code long} is
 * 50,000 operations per mode (100,000 with both) with a kill every few seconds.
 *
 * @param load how long the clients run at most
 * @param operations stop earlier once this many logical operations were started (0: no limit)
 * @param workers concurrent merchant order flows
 * @param killEvery mean pause between two kill -9s
 * @param drain how long the end may wait for recovery to finish
 */
record Size(String name, Duration load, long operations, int workers, Duration killEvery, Duration drain,
        Balancer.Faults balancerFaults) {

    static Size of(String name) {
        Balancer.Faults faults = new Balancer.Faults(0.04, 0.04, 0.04);
        return switch (name) {
            case "ci" -> new Size("ci", Duration.ofSeconds(60), 0, 8, Duration.ofSeconds(7), Duration.ofSeconds(90),
                    faults);
            case "long" -> new Size("long", Duration.ofMinutes(40), 50_000, 12, Duration.ofSeconds(5),
                    Duration.ofMinutes(5), faults);
            default -> throw new IllegalArgumentException("--size is ci or long, not " + name);
        };
    }
}

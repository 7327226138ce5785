package dev.kopek.simulator;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * Faults waiting for the next operations on a charge, first armed first used. Operations consult it
 * while holding the charge's monitor, so two operations on one charge never take the same fault.
 */
final class ArmedFaults {
    /** The most one arming may queue; a fault queue is a test aid, not a load generator. */
    static final int MAX_TIMES = 10_000;

    private record Target(Operation operation, String chargeId) {}

    private final Map<Target, Deque<ArmedFault>> queues = new HashMap<>();

    synchronized void arm(Operation operation, String chargeId, ArmedFault fault, int times) {
        if (operation == Operation.CHARGE) {
            throw new IllegalArgumentException("faults are armed for capture, void or refund; charges use tokens");
        }
        if (times < 1 || times > MAX_TIMES) {
            throw new IllegalArgumentException("times must be between 1 and " + MAX_TIMES);
        }
        Deque<ArmedFault> queue = queues.computeIfAbsent(new Target(operation, chargeId), t -> new ArrayDeque<>());
        for (int i = 0; i < times; i++) {
            queue.addLast(fault);
        }
    }

    /** The next fault for the operation on the charge without using it, or null. */
    synchronized ArmedFault peek(Operation operation, String chargeId) {
        Deque<ArmedFault> queue = queues.get(new Target(operation, chargeId));
        return queue == null ? null : queue.peekFirst();
    }

    /** Uses up the next fault, or returns null when none is armed. */
    synchronized ArmedFault take(Operation operation, String chargeId) {
        Deque<ArmedFault> queue = queues.get(new Target(operation, chargeId));
        return queue == null ? null : queue.pollFirst();
    }
}

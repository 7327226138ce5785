package dev.kopek.simulation;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Chooses a run's steps from its seed alone; the same seed is always the same list. */
final class OpGenerator {

    static final String[] METHODS = {
        "pm_ok",
        "pm_ok",
        "pm_ok",
        "pm_ok",
        "pm_ok",
        "pm_ok",
        "pm_ok",
        "pm_reset_then_refused",
        "pm_declined",
        "pm_insufficient_funds",
        "pm_invalid",
        "pm_timeout_after_charge",
        "pm_reset_after_charge",
        "pm_slow",
        "pm_5xx_after_charge",
        "pm_5xx_no_charge",
        "pm_429",
        "pm_refund_declined",
        "pm_webhook_only",
        "pm_webhook_only_declined"
    };
    static final String[] FAULTS = {
        "timeout_after_success", "reset_after_success", "5xx_after_success", "5xx_no_effect", "429", "declined"
    };
    static final String[] DELIVERY = {"in_order", "reversed", "shuffled", "duplicated", "held"};
    static final String[] JUMPS = {"lease", "lease", "lease", "key_window", "authorization_expiry"};

    private OpGenerator() {}

    static List<Op> generate(long seed, KnownDefects exclusions) {
        Random random = new Random(seed);
        int steps = 8 + random.nextInt(14);
        List<Op> ops = new ArrayList<>();
        ops.add(create(random));
        while (ops.size() < steps) {
            Op op = next(random);
            if (!exclusions.excludes(op)) {
                ops.add(op);
            }
        }
        races(seed, exclusions, ops);
        return ops;
    }

    /**
     * The races of issue 24 (defects 1 and 9), from a second stream of the seed, inserted among the steps: every seed
     * keeps the steps it had, in their order, so the seeds that found the defects of issue 10 keep their scenarios.
     */
    private static void races(long seed, KnownDefects exclusions, List<Op> ops) {
        Random extra = new Random(seed * 0x9E3779B97F4A7C15L + 24);
        for (Op race : List.of(new Op.NotifyRacingReconciler(), new Op.DecideRacingNotifications())) {
            if (extra.nextInt(4) == 0 && !exclusions.excludes(race)) {
                ops.add(1 + extra.nextInt(ops.size()), race);
            }
        }
    }

    private static Op create(Random r) {
        String method = METHODS[r.nextInt(METHODS.length)];
        return new Op.Create(
                r.nextInt(2),
                100 + r.nextInt(50_000),
                method,
                r.nextBoolean(),
                r.nextInt(12) == 0,
                r.nextInt(8) == 0,
                r.nextInt(10) == 0);
    }

    private static String fault(Random r) {
        return r.nextInt(10) < 7 ? null : FAULTS[r.nextInt(FAULTS.length)];
    }

    private static Op next(Random r) {
        int slot = r.nextInt(8);
        int roll = r.nextInt(200);
        if (roll < 36) {
            return create(r);
        } else if (roll < 46) {
            return new Op.RetryCreate(slot, r.nextBoolean());
        } else if (roll < 51) {
            return new Op.NewKeySameReference(slot, METHODS[r.nextInt(METHODS.length)]);
        } else if (roll < 77) {
            return new Op.Capture(
                    slot, r.nextInt(4) == 0 ? 0 : 10 + r.nextInt(91), r.nextInt(4) == 0, fault(r), r.nextInt(12) == 0);
        } else if (roll < 86) {
            return new Op.Void(slot, fault(r), r.nextInt(12) == 0);
        } else if (roll < 112) {
            return new Op.Refund(
                    slot, r.nextInt(8) == 0 ? 101 + r.nextInt(100) : 5 + r.nextInt(96), fault(r), r.nextInt(12) == 0);
        } else if (roll < 120) {
            return new Op.Burst(
                    slot,
                    r.nextBoolean() ? "refund" : "capture",
                    2 + r.nextInt(3),
                    20 + r.nextInt(50),
                    r.nextInt(3) == 0);
        } else if (roll < 132) {
            return new Op.RetryLast(slot, r.nextBoolean());
        } else if (roll < 142) {
            int then = r.nextInt(4);
            return new Op.Dispute(
                    slot, r.nextBoolean() ? 0 : 10 + r.nextInt(91), then == 0 ? "won" : then == 1 ? "lost" : null);
        } else if (roll < 150) {
            return new Op.ResolveDispute(slot, r.nextBoolean());
        } else if (roll < 168) {
            return new Op.Deliver(DELIVERY[r.nextInt(DELIVERY.length)]);
        } else if (roll < 180) {
            return new Op.Reconcile();
        } else if (roll < 190) {
            return new Op.Jump(JUMPS[r.nextInt(JUMPS.length)]);
        } else if (roll < 198) {
            return new Op.Probe(slot);
        }
        return new Op.Poison(101);
    }
}

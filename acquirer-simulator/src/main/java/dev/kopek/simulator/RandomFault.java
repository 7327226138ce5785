package dev.kopek.simulator;

import java.util.concurrent.ThreadLocalRandom;

/** The configured random faults, drawn once per fresh charge before its token is looked at. */
enum RandomFault {
    NONE(null),
    /** As pm_5xx_no_charge: 503, nothing charged, key released. */
    FAIL_BEFORE_CHARGE(null),
    /** As pm_5xx_after_charge: charged and stored, but the response is a 500. */
    FAIL_AFTER_CHARGE(Delivery.ERROR_500),
    /** As pm_timeout_after_charge: charged and stored, then the response hangs. */
    TIMEOUT_AFTER_CHARGE(Delivery.HANG);

    private final Delivery delivery;

    RandomFault(Delivery delivery) {
        this.delivery = delivery;
    }

    /** One roll for all three so each configured rate is the exact share of requests it hits. */
    static RandomFault roll(SimulatorConfig config) {
        double total = config.failBeforeChargeRate() + config.failAfterChargeRate() + config.timeoutAfterChargeRate();
        if (total == 0.0) {
            return NONE;
        }
        double r = ThreadLocalRandom.current().nextDouble();
        if (r < config.failBeforeChargeRate()) {
            return FAIL_BEFORE_CHARGE;
        }
        if (r < config.failBeforeChargeRate() + config.failAfterChargeRate()) {
            return FAIL_AFTER_CHARGE;
        }
        return r < total ? TIMEOUT_AFTER_CHARGE : NONE;
    }

    /** The delivery this fault forces on a stored charge; null when it leaves the token's own. */
    Delivery delivery() {
        return delivery;
    }
}

package dev.kopek.payments.audit;

import dev.kopek.payments.jdbc.PaymentSlices;
import dev.kopek.payments.jdbc.PaymentSlices.PaymentRow;
import dev.kopek.platform.InvariantCheck;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.springframework.stereotype.Component;

/**
 * Authorization holds are released after their expiry: past {@code capture_before} a decided payment has nothing
 * left that it could still capture (the reconciler's authorization expiry releases the rest every few seconds; an
 * hour's grace keeps a busy or restarting fleet from looking like a broken one). A payment a person has in an open
 * review item is theirs to settle.
 */
@Component
class HoldsReleasedCheck implements InvariantCheck {

    private static final Duration GRACE = Duration.ofHours(1);
    private static final Set<String> UNDECIDED = Set.of("PENDING", "UNKNOWN");

    private final PaymentSlices slices;
    private final Clock clock;

    HoldsReleasedCheck(PaymentSlices slices, Clock clock) {
        this.slices = slices;
        this.clock = clock;
    }

    @Override
    public String name() {
        return "holds_released";
    }

    @Override
    public String law() {
        return "L8: an authorization past its expiry holds nothing";
    }

    @Override
    public long total() {
        return slices.paymentCount();
    }

    @Override
    public Slice check(String after, int limit) {
        Instant expiredBefore = clock.instant().minus(GRACE);
        List<PaymentRow> rows = slices.payments(after, limit);
        List<Finding> findings = new ArrayList<>();
        for (PaymentRow p : rows) {
            long held = p.authorized() - p.captured() - p.capturePending() - p.released();
            if (p.captureBefore() != null
                    && p.captureBefore().isBefore(expiredBefore)
                    && !UNDECIDED.contains(p.status())
                    && held != 0) {
                findings.add(new Finding(
                        "payment " + p.id(),
                        p.id(),
                        p.merchant(),
                        p.id(),
                        "payment " + p.id() + " (" + p.status() + ") still holds " + held
                                + " after its authorization expired at " + p.captureBefore(),
                        Excuse.OPEN_REVIEW));
            }
        }
        return Audit.slice(rows, PaymentRow::id, findings);
    }
}

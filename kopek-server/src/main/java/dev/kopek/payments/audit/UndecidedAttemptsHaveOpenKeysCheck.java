package dev.kopek.payments.audit;

import dev.kopek.payments.PaymentService;
import dev.kopek.payments.jdbc.PaymentSlices;
import dev.kopek.payments.jdbc.PaymentSlices.AttemptRow;
import dev.kopek.platform.InvariantCheck;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * Every payment, capture, void or refund that is pending or unknown has an unfinished idempotency key naming it:
 * phase 1 inserts the attempt in the statement or transaction that claims its key, only its owner moves it (fenced
 * by the key), an unknown outcome leaves the key awaiting a result or parked, a final one completes the key in the
 * transaction that decides the attempt, and cleanup deletes completed keys alone. The unknown-outcome gauges, the
 * console's Health figures and its list of what is in flight start from the unfinished keys (few, and indexed)
 * instead of reading every payment; an attempt this check finds would be missing from them, and from the
 * reconciler, which also finds its work through unfinished keys. A person's open review excuses nothing: a parked
 * attempt keeps its key.
 */
@Component
class UndecidedAttemptsHaveOpenKeysCheck implements InvariantCheck {

    private final PaymentSlices slices;

    UndecidedAttemptsHaveOpenKeysCheck(PaymentSlices slices) {
        this.slices = slices;
    }

    @Override
    public String name() {
        return "undecided_attempts_have_open_keys";
    }

    @Override
    public String law() {
        return "L1/L4: a pending or unknown payment, capture, void or refund has an unfinished key that can fence its"
                + " outcome";
    }

    @Override
    public long total() {
        return slices.paymentCount() + slices.operationCount();
    }

    @Override
    public Slice check(String after, int limit) {
        List<AttemptRow> rows = slices.attempts(after, limit, PaymentService.OPERATION);
        List<Finding> findings = new ArrayList<>();
        for (AttemptRow a : rows) {
            if (a.keyless()) {
                findings.add(new Finding(
                        a.kind() + " " + a.id(),
                        a.id(),
                        a.merchant(),
                        a.payment(),
                        a.kind() + " " + a.id() + (a.kind().equals("payment") ? "" : " of payment " + a.payment())
                                + " is " + a.status() + " since " + a.updatedAt()
                                + " and no unfinished key names it: no owner can record its outcome, and the"
                                + " reconciler, the unknown-outcome gauges and Needs attention do not see it",
                        Excuse.NONE));
            }
        }
        return Audit.slice(rows, AttemptRow::id, findings);
    }
}

package dev.kopek.payments.audit;

import dev.kopek.payments.jdbc.PaymentSlices;
import dev.kopek.payments.jdbc.PaymentSlices.PaymentRow;
import dev.kopek.platform.InvariantCheck;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * L7 and docs/design.md "Disputes" in production: refunds never exceed what was captured, and refunds plus chargebacks
 * exceed it only where an {@code exposure} review item says a person was told (a chargeback is recorded whatever
 * it overlaps, and that item is opened in the same transaction).
 */
@Component
class RefundsWithinCapturedCheck implements InvariantCheck {

    private final PaymentSlices slices;

    RefundsWithinCapturedCheck(PaymentSlices slices) {
        this.slices = slices;
    }

    @Override
    public String name() {
        return "refunds_within_captured";
    }

    @Override
    public String law() {
        return "L7: refunded ≤ captured; refunded + charged back ≤ captured unless an exposure review item exists";
    }

    @Override
    public long total() {
        return slices.paymentCount();
    }

    @Override
    public Slice check(String after, int limit) {
        List<PaymentRow> rows = slices.payments(after, limit);
        List<Finding> findings = new ArrayList<>();
        for (PaymentRow p : rows) {
            String figures = "captured " + p.captured() + ", refunded " + p.refunded() + " (+" + p.refundPending()
                    + " pending), charged back " + p.disputed();
            if (p.refunded() + p.refundPending() > p.captured()) {
                findings.add(new Finding(
                        "payment " + p.id(),
                        p.id(),
                        p.merchant(),
                        p.id(),
                        "payment " + p.id() + " refunds exceed its capture: " + figures,
                        Excuse.NONE));
            } else if (p.refunded() + p.disputed() > p.captured()) {
                findings.add(new Finding(
                        "payment " + p.id(),
                        p.id(),
                        p.merchant(),
                        p.id(),
                        "payment " + p.id() + " refunds and chargebacks exceed its capture with no exposure review"
                                + " item: " + figures,
                        Excuse.EXPOSURE_REVIEW));
            }
        }
        return Audit.slice(rows, PaymentRow::id, findings);
    }
}

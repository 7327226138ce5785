package dev.kopek.payments.audit;

import dev.kopek.payments.jdbc.PaymentSlices;
import dev.kopek.payments.jdbc.PaymentSlices.PaymentRow;
import dev.kopek.platform.InvariantCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.springframework.stereotype.Component;

/**
 * L5/L6 in production: no payment stays pending or unknown beyond its PSP's key window unless a person has it in an
 * open review item (the reconciler resolves it by lookup while the window is open, and parks it after).
 */
@Component
class UnknownPastWindowCheck implements InvariantCheck {

    static final Set<String> UNDECIDED = Set.of("PENDING", "UNKNOWN");

    private final PaymentSlices slices;
    private final KeyWindows windows;

    UnknownPastWindowCheck(PaymentSlices slices, KeyWindows windows) {
        this.slices = slices;
        this.windows = windows;
    }

    @Override
    public String name() {
        return "payments_decided_within_window";
    }

    @Override
    public String law() {
        return "L6: no payment is pending or unknown past its key window without a review item";
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
            if (UNDECIDED.contains(p.status()) && windows.overdue(p.merchant(), p.pspAccount(), p.createdAt())) {
                findings.add(new Finding(
                        "payment " + p.id(),
                        p.id(),
                        p.merchant(),
                        p.id(),
                        "payment " + p.id() + " is still " + p.status() + " since " + p.createdAt()
                                + ", past its PSP's key window, and no person has it",
                        Excuse.OPEN_REVIEW));
            }
        }
        return Audit.slice(rows, PaymentRow::id, findings);
    }
}

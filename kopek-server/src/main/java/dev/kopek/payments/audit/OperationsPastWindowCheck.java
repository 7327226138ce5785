package dev.kopek.payments.audit;

import dev.kopek.payments.jdbc.PaymentSlices;
import dev.kopek.payments.jdbc.PaymentSlices.OperationRow;
import dev.kopek.platform.InvariantCheck;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;

/** L5/L6 for captures, voids and refunds: none stays pending or unknown past its key window unless a person has it. */
@Component
class OperationsPastWindowCheck implements InvariantCheck {

    private final PaymentSlices slices;
    private final KeyWindows windows;

    OperationsPastWindowCheck(PaymentSlices slices, KeyWindows windows) {
        this.slices = slices;
        this.windows = windows;
    }

    @Override
    public String name() {
        return "operations_decided_within_window";
    }

    @Override
    public String law() {
        return "L6: no capture, void or refund is pending or unknown past its key window without a review item";
    }

    @Override
    public long total() {
        return slices.operationCount();
    }

    @Override
    public Slice check(String after, int limit) {
        List<OperationRow> rows = slices.operations(after, limit);
        List<Finding> findings = new ArrayList<>();
        for (OperationRow op : rows) {
            if (UnknownPastWindowCheck.UNDECIDED.contains(op.status())
                    && windows.overdue(op.merchant(), op.pspAccount(), op.createdAt())) {
                findings.add(new Finding(
                        op.kind() + " " + op.id(),
                        op.id(),
                        op.merchant(),
                        op.payment(),
                        op.kind() + " " + op.id() + " of payment " + op.payment() + " is still " + op.status()
                                + " since " + op.createdAt() + ", past its PSP's key window, and no person has it",
                        Excuse.OPEN_REVIEW));
            }
        }
        return Audit.slice(rows, OperationRow::id, findings);
    }
}

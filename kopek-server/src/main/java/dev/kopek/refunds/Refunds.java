package dev.kopek.refunds;

import dev.kopek.money.MerchantId;
import dev.kopek.money.PaymentId;
import dev.kopek.money.RefundId;
import dev.kopek.payments.OperationRunner;
import dev.kopek.payments.PaymentAnswer;
import dev.kopek.payments.PaymentOperations;
import dev.kopek.payments.domain.OperationKind;
import dev.kopek.payments.domain.PaymentOperation;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Service;

/**
 * Refunds, one kind of the one operation pipeline ({@link PaymentOperations}): phase 1 reserves the amount, inserts
 * the PENDING refund and stores the client's 202 in one statement, and the refund then runs like every capture and
 * void ({@link OperationRunner}), fenced by its own key. What is the refund's own — its answer, its event, its
 * amounts in phase 3 — is {@link RefundStrategy}.
 */
@Service
public class Refunds {

    private final PaymentOperations operations;
    private final OperationRunner runner;

    Refunds(PaymentOperations operations, OperationRunner runner) {
        this.operations = operations;
        this.runner = runner;
    }

    /** 202 with the PENDING refund (or its replay), 404/409 with nothing stored, 409 in flight, 422 key reused. */
    public PaymentAnswer create(MerchantId merchant, PaymentId paymentId, String key, long amount, String reason) {
        return operations.refund(merchant, paymentId, key, amount, reason);
    }

    public Optional<PaymentOperation> find(MerchantId merchant, RefundId id) {
        return operations.find(merchant, OperationKind.REFUND, id.value());
    }

    public List<PaymentOperation> forPayment(MerchantId merchant, PaymentId payment) {
        return operations.forPayment(merchant, payment, OperationKind.REFUND);
    }
}

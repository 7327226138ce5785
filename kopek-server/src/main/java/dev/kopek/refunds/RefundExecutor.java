package dev.kopek.refunds;

import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.idempotency.IdempotencyProperties;
import dev.kopek.money.RefundId;
import dev.kopek.payments.KeyWindow;
import dev.kopek.payments.ManualReviewRequired;
import dev.kopek.payments.PaymentBalances;
import dev.kopek.payments.PaymentService;
import dev.kopek.payments.ReviewSettled;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.AfterPspCall;
import dev.kopek.psp.ChargeOutcome;
import dev.kopek.psp.LookupResult;
import dev.kopek.psp.OperationRequest;
import dev.kopek.psp.PaymentProvider;
import dev.kopek.refunds.domain.Refund;
import dev.kopek.refunds.domain.RefundStatus;
import dev.kopek.refunds.jdbc.RefundStore;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Runs a refund against the PSP. The owner is whoever claimed the refund row (attempt + 1, with a lease); the
 * first attempt sends the refund, a later one asks the PSP by key first and sends at most once while the key
 * window is open. The outcome is written fenced by the attempt and guarded by the refund's status, so a
 * reservation is released exactly once however often a failure is delivered.
 */
@Component
class RefundExecutor {

    private static final Logger log = LoggerFactory.getLogger(RefundExecutor.class);

    private final RefundStore refunds;
    private final PaymentBalances balances;
    private final PaymentService payments;
    private final PaymentProvider psp;
    private final KeyWindow keyWindow;
    private final IdempotencyProperties timing;
    private final ApplicationEventPublisher publisher;
    private final RefundEvents events;
    private final TransactionTemplate tx;
    private final Clock clock;
    private final boolean dispatch;
    private final AfterPspCall afterPspCall;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

    RefundExecutor(RefundStore refunds, PaymentBalances balances, PaymentService payments, PaymentProvider psp,
            KeyWindow keyWindow, IdempotencyProperties timing, ApplicationEventPublisher publisher,
            RefundEvents events, TransactionTemplate tx, Clock clock, @Value("${kopek.refunds.dispatch:true}") boolean dispatch,
            Optional<AfterPspCall> afterPspCall) {
        this.refunds = refunds;
        this.balances = balances;
        this.payments = payments;
        this.psp = psp;
        this.keyWindow = keyWindow;
        this.timing = timing;
        this.publisher = publisher;
        this.events = events;
        this.tx = tx;
        this.clock = clock;
        this.dispatch = dispatch;
        this.afterPspCall = afterPspCall.orElse((payment, outcome) -> { });
    }

    /** Starts a just-accepted refund at once; if this is lost, the reconciler finds it due. */
    void dispatch(RefundId id) {
        if (dispatch) {
            threads.submit(() -> refunds.find(id).ifPresent(this::execute));
        }
    }

    boolean execute(Refund seen) {
        Optional<Refund> claimed = refunds.claim(seen, clock.instant().plus(timing.lease()));
        if (claimed.isEmpty()) {
            return false;
        }
        Refund refund = claimed.get();
        Payment payment = payments.find(refund.merchant(), refund.payment()).orElseThrow();
        OperationRequest request = new OperationRequest(OperationRequest.Kind.REFUND, refund.providerKey(),
                payment.pspReference(), refund.amount(), false);
        if (refund.attempt() == 1) {
            ChargeOutcome outcome = psp.execute(request);
            afterPspCall.accept(refund.payment(), outcome);
            record(refund.id(), refund.attempt(), outcome, null);
            return true;
        }
        switch (psp.lookup(request)) {
            case LookupResult.Found f -> record(refund.id(), refund.attempt(), f.outcome(), null);
            case LookupResult.Inconclusive i ->
                    record(refund.id(), refund.attempt(), new ChargeOutcome.Unknown(i.reason()), null);
            case LookupResult.NotFound n -> {
                if (keyWindow.isOpen(refund.createdAt())) {
                    record(refund.id(), refund.attempt(), timing.maySend(refund.attempt()) ? psp.executeOnce(request)
                            : new ChargeOutcome.Failed(KeyWindow.nothingAfterTries(refund.attempt() - 1)), null);
                } else {
                    record(refund.id(), refund.attempt(), new ChargeOutcome.Unknown("no record at the PSP"),
                            KeyWindow.CLOSED_REASON);
                }
            }
        }
        return true;
    }

    /**
     * Phase 3 of a refund. With {@code attempt} null (a PSP notification) only the status guard applies. Returns
     * whether anything changed.
     */
    boolean record(RefundId id, Integer attempt, ChargeOutcome outcome, String reviewReason) {
        Boolean changed = tx.execute(status -> switch (outcome) {
            case ChargeOutcome.Succeeded s -> refunds.transition(id, attempt, RefundStatus.SUCCEEDED, s.pspReference(),
                    null, null).map(r -> {
                        balances.refundSucceeded(r.payment(), r.id().value(), r.amount().minor());
                        closeReview(r, "succeeded");
                        return announce(r);
                    }).isPresent();
            case ChargeOutcome.Declined d -> failed(id, attempt, "declined: " + d.declineCode());
            case ChargeOutcome.Failed f -> failed(id, attempt, f.reason());
            case ChargeOutcome.Authorized a -> unknown(id, attempt, "psp answered a refund with an authorization",
                    reviewReason);
            case ChargeOutcome.Unknown u -> unknown(id, attempt, u.reason(), reviewReason);
        });
        return Boolean.TRUE.equals(changed);
    }

    private boolean failed(RefundId id, Integer attempt, String reason) {
        return refunds.transition(id, attempt, RefundStatus.FAILED, null, reason, null).map(r -> {
            balances.refundFailed(r.payment(), r.id().value(), r.amount().minor());
            closeReview(r, "failed");
            return announce(r);
        }).isPresent();
    }

    private boolean unknown(RefundId id, Integer attempt, String reason, String reviewReason) {
        Instant retryAt = reviewReason == null ? clock.instant().plus(timing.graceFor(attempt == null ? 1 : attempt))
                : IdempotencyKeys.PARKED;
        Optional<Refund> before = refunds.find(id);
        return refunds.transition(id, attempt, RefundStatus.UNKNOWN, null, reason, retryAt).map(r -> {
            if (before.map(b -> b.status() != RefundStatus.UNKNOWN).orElse(true)) {
                announce(r);
            }
            if (reviewReason != null) {
                publisher.publishEvent(new ManualReviewRequired(r.payment(), r.merchant(), reviewReason, "refund",
                        r.id().value()));
            }
            log.warn("refund outcome unknown: refund={} attempt={} reason={}", r.id(), r.attempt(), reason);
            return r;
        }).isPresent();
    }

    /** A refund parked for a person and settled after all (by a notification) closes its review item. */
    private void closeReview(Refund settled, String resolution) {
        if (IdempotencyKeys.isParked(settled.leaseUntil())) {
            publisher.publishEvent(new ReviewSettled("refund", settled.id().value(), resolution));
        }
    }

    private Refund announce(Refund refund) {
        log.info("refund {}: refund={} payment={} attempt={} psp_ref={}", refund.status(), refund.id(),
                refund.payment(), refund.attempt(), refund.pspReference());
        return events.announce(refund);
    }
}

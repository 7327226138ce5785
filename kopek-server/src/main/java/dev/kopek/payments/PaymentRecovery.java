package dev.kopek.payments;

import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.idempotency.KeyRecord;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.jdbc.PaymentStore;
import dev.kopek.psp.ChargeOutcome;
import dev.kopek.psp.ChargeRequest;
import dev.kopek.psp.LookupResult;
import dev.kopek.psp.PaymentProvider;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * What a new owner of an abandoned or unknown attempt does: ask the PSP by key first; charge at most once, and
 * only while the PSP's key window is open (so a repeat is still recognised as a repeat); past the window, hand
 * the attempt to a person. Never a blind retry, never an automatic failure (L5, L6).
 */
@Component
class PaymentRecovery {

    private static final Logger log = LoggerFactory.getLogger(PaymentRecovery.class);

    private final IdempotencyKeys keys;
    private final PaymentStore payments;
    private final PaymentSettlement settlement;
    private final PaymentProvider psp;
    private final KeyWindow keyWindow;
    private final MeterRegistry meters;
    private final Clock clock;

    PaymentRecovery(IdempotencyKeys keys, PaymentStore payments, PaymentSettlement settlement, PaymentProvider psp,
            KeyWindow keyWindow, MeterRegistry meters, Clock clock) {
        this.keys = keys;
        this.payments = payments;
        this.settlement = settlement;
        this.psp = psp;
        this.keyWindow = keyWindow;
        this.meters = meters;
        this.clock = clock;
    }

    PaymentAnswer resume(ClientKey ck, int attempt, Payment payment) {
        meters.counter("kopek.idempotency.reclaims").increment();
        log.info("resuming attempt: payment={} key#={} attempt={} status={}", payment.id(), ck.hash(), attempt,
                payment.status());
        LookupResult found = psp.lookup(payment.providerKey());
        return switch (found) {
            case LookupResult.Found f -> settleOrReport(ck, attempt, payment, f.outcome(), null);
            case LookupResult.Inconclusive i ->
                    settleOrReport(ck, attempt, payment, new ChargeOutcome.Unknown(i.reason()), null);
            case LookupResult.NotFound n -> settleOrReport(ck, attempt, payment, nothingUnderKey(attempt, payment),
                    keyWindow.isOpen(payment.createdAt()) ? null : KeyWindow.CLOSED_REASON);
        };
    }

    /**
     * The PSP has nothing under the key. Inside its key window that is proof: while tries remain, send once more;
     * after the last try, nothing was charged and the attempt fails (the intent is free again). Past the window it
     * proves nothing, and a person decides.
     */
    private ChargeOutcome nothingUnderKey(int attempt, Payment payment) {
        if (!keyWindow.isOpen(payment.createdAt())) {
            return new ChargeOutcome.Unknown("the PSP has no record and its key window has closed");
        }
        return keys.properties().maySend(attempt) ? psp.chargeOnce(chargeOf(payment))
                : new ChargeOutcome.Failed(KeyWindow.nothingAfterTries(attempt - 1));
    }

    /** Phase 3, or — when someone else owns the key by now — the answer their state gives. */
    PaymentAnswer settleOrReport(ClientKey ck, int attempt, Payment payment, ChargeOutcome outcome, String review) {
        try {
            return settlement.settle(payment, ck, attempt, outcome, review);
        } catch (PaymentSettlement.StaleAttempt stale) {
            return keys.find(ck).map(this::answerFromKey)
                    .orElseThrow(() -> new IllegalStateException("key vanished while unfinished: " + ck));
        }
    }

    private PaymentAnswer answerFromKey(KeyRecord key) {
        return switch (key.status()) {
            case COMPLETED -> new PaymentAnswer.Final(key.responseCode(), key.responseBody(), true);
            case AWAITING_RESULT -> new PaymentAnswer.Processing(payments.find(
                    new dev.kopek.money.PaymentId(key.resourceId())).orElseThrow());
            case IN_PROGRESS -> new PaymentAnswer.InFlight(IdempotencyKeys.retryAfter(key.leaseUntil(),
                    clock.instant()));
        };
    }

    static ChargeRequest chargeOf(Payment payment) {
        return new ChargeRequest(payment.providerKey(), payment.amount(), payment.paymentMethod(), payment.reference(),
                !payment.isManualCapture());
    }
}

package dev.kopek.payments;

import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.jdbc.PaymentStore;
import dev.kopek.psp.ChargeOutcome;
import dev.kopek.psp.ChargeRequest;
import dev.kopek.psp.PaymentProvider;
import dev.kopek.psp.PaymentProviders;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * What a new owner of an abandoned or unknown payment attempt does: ask the PSP by key first and decide as every
 * kind does ({@link LookupDecision}): never a blind retry, never a charge past the key window (L5, L6).
 */
@Component
class PaymentResumer {

    private static final Logger log = LoggerFactory.getLogger(PaymentResumer.class);

    private final IdempotencyKeys keys;
    private final PaymentStore payments;
    private final PaymentRecorder recorder;
    private final PaymentProviders psps;
    private final KeyWindow keyWindow;
    private final Clock clock;

    PaymentResumer(IdempotencyKeys keys, PaymentStore payments, PaymentRecorder recorder, PaymentProviders psps,
            KeyWindow keyWindow, Clock clock) {
        this.keys = keys;
        this.payments = payments;
        this.recorder = recorder;
        this.psps = psps;
        this.keyWindow = keyWindow;
        this.clock = clock;
    }

    PaymentAnswer resume(ClientKey ck, int attempt, Payment payment) {
        log.info("resuming attempt: payment={} key#={} attempt={} status={}", payment.id(), ck.hash(), attempt,
                payment.status());
        PaymentProvider psp = psps.forMerchant(payment.merchant());
        LookupDecision next = LookupDecision.after(psp.lookup(payment.providerKey()),
                keyWindow.isOpen(psp, payment.createdAt()), keys.properties().maySend(attempt), attempt,
                () -> psp.chargeOnce(chargeOf(payment)));
        return recordOrReport(ck, attempt, payment, next.outcome(), next.reviewReason());
    }

    /** Phase 3, or — when someone else owns the key by now — the answer their state gives. */
    PaymentAnswer recordOrReport(ClientKey ck, int attempt, Payment payment, ChargeOutcome outcome, String review) {
        try {
            return recorder.record(payment, ck, attempt, outcome, review);
        } catch (StaleAttempt stale) {
            return PaymentAnswer.fromKey(keys.find(ck).orElseThrow(
                    () -> new IllegalStateException("key vanished while unfinished: " + ck)),
                    () -> payments.find(payment.id()).orElseThrow(), clock.instant());
        }
    }

    static ChargeRequest chargeOf(Payment payment) {
        return new ChargeRequest(payment.providerKey(), payment.amount(), payment.paymentMethod(), payment.reference(),
                !payment.isManualCapture());
    }
}

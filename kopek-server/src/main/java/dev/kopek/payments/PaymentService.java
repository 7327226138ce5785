package dev.kopek.payments;

import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.Fingerprint;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.idempotency.KeyRecord;
import dev.kopek.idempotency.KeyStatus;
import dev.kopek.money.MerchantId;
import dev.kopek.money.PaymentId;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.payments.domain.Payment;
import dev.kopek.payments.domain.PaymentRequest;
import dev.kopek.payments.domain.PaymentStatus;
import dev.kopek.payments.jdbc.PaymentStore;
import dev.kopek.platform.ApiProblem;
import dev.kopek.psp.ChargeOutcome;
import dev.kopek.psp.LookupResult;
import dev.kopek.psp.NotificationSource;
import dev.kopek.psp.PaymentProvider;
import dev.kopek.psp.PaymentProviders;
import dev.kopek.psp.PspCircuit;
import dev.kopek.psp.PspRequest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;

/**
 * Creates payments in three phases: phase 1 ({@link PhaseOne}, one statement that claims the key and inserts the
 * PENDING attempt with its event, a short transaction when the key exists already); the PSP is called with no
 * transaction and no connection held (L3); a fenced transaction records the outcome.
 */
@Service
public class PaymentService {

    public static final String OPERATION = "payment.create";

    private final IdempotencyKeys keys;
    private final PaymentStore payments;
    private final AttemptRunner runner;
    private final PaymentProviders psps;
    private final PhaseOne phaseOne;
    private final PaymentEvents events;
    private final Clock clock;
    private final PhaseOneBatches batches;
    private final PhaseThreeBatches recordings;

    PaymentService(
            IdempotencyKeys keys,
            PaymentStore payments,
            AttemptRunner runner,
            PaymentProviders psps,
            PhaseOne phaseOne,
            PaymentEvents events,
            Clock clock,
            PhaseOneBatches batches,
            PhaseThreeBatches recordings) {
        this.keys = keys;
        this.payments = payments;
        this.runner = runner;
        this.psps = psps;
        this.phaseOne = phaseOne;
        this.events = events;
        this.clock = clock;
        this.batches = batches;
        this.recordings = recordings;
    }

    public PaymentAnswer create(MerchantId merchant, String idempotencyKey, PaymentRequest request) {
        ClientKey ck = new ClientKey(merchant, OPERATION, idempotencyKey);
        String fingerprint = Fingerprint.of(request.canonicalFields());
        PspCircuit circuit = psps.circuitFor(merchant);
        Optional<PaymentAnswer> stored = refuseWhileThePspIsDown(circuit, ck, fingerprint);
        if (stored.isPresent()) {
            return stored.get();
        }
        try {
            return admitted(merchant, idempotencyKey, request, ck, fingerprint);
        } finally {
            // A request the circuit let through that called no PSP gives its permit back.
            circuit.releaseUnused();
        }
    }

    /** Phases 1 to 3 of a payment the circuit let through. */
    private PaymentAnswer admitted(
            MerchantId merchant, String idempotencyKey, PaymentRequest request, ClientKey ck, String fingerprint) {
        return phaseOne.admit(ck, fingerprint, TimeOrderedIds.next(clock), new PhaseOne.Kind<Payment>() {
            @Override
            public Optional<PhaseOne.Admitted<Payment>> fused(UUID newId) {
                try {
                    // with concurrent requests' phase 1s in one statement when they queue (PhaseOneBatches)
                    return batches.claimAndInsert(
                                    ck, fingerprint, new PaymentId(newId), merchant, request, idempotencyKey)
                            .map(PhaseOne.Inserted::new);
                } catch (DuplicateKeyException e) {
                    return Optional.of(liveAttempt(e, request));
                }
            }

            @Override
            public PhaseOne.Admitted<Payment> claimed(UUID newId) {
                try {
                    Payment inserted = payments.insertPending(
                            new PaymentId(newId), merchant, request, idempotencyKey, ck.providerKey(newId));
                    events.changed(inserted, "created");
                    return new PhaseOne.Inserted<>(inserted);
                } catch (DuplicateKeyException e) {
                    return liveAttempt(e, request);
                }
            }

            @Override
            public PaymentAnswer started(Payment pending, ClientKey key) {
                IdempotencyKeys.logContext(key, 1, pending.id().value());
                return runner.start(attempt(pending), key, 1);
            }

            @Override
            public Attempt attemptOf(UUID resourceId) {
                return attempt(payment(resourceId));
            }
        });
    }

    /** 409 when the intent has a live or paid attempt under another key (L2); any other conflict is a bug. */
    private static PhaseOne.Refused<Payment> liveAttempt(DuplicateKeyException e, PaymentRequest request) {
        if (ConstraintNames.of(e).equals(PaymentStore.LIVE_ATTEMPT_INDEX)) {
            return new PhaseOne.Refused<>(new PaymentAnswer.LiveAttemptExists(request.reference()));
        }
        throw e;
    }

    /**
     * While the PSP's circuit is open a new payment is refused before its key is claimed: nothing is stored, the
     * PSP is not called, and the answer is 503, never a decline. The client retries with the same key later. The
     * circuit is that of the account the payment goes to (Kopek's configured account, or the merchant's own): a
     * failing Stripe does not stop merchants on another PSP, nor one merchant's failing or rate-limited Stripe
     * account the merchants on their own Stripe accounts. A retry of a payment
     * that already has its final answer calls no PSP, so that answer is replayed whatever the circuit says (read
     * only while the circuit is open; nothing is claimed). Empty: the circuit lets the request through.
     */
    private Optional<PaymentAnswer> refuseWhileThePspIsDown(PspCircuit circuit, ClientKey ck, String fingerprint) {
        Optional<Duration> wait = circuit.refusal();
        if (wait.isEmpty()) {
            return Optional.empty();
        }
        Optional<KeyRecord> key = keys.find(ck);
        if (key.isPresent()
                && key.get().status() == KeyStatus.COMPLETED
                && key.get().requestHash().equals(fingerprint)) {
            return Optional.of(
                    new PaymentAnswer.Final(key.get().responseCode(), key.get().responseBody(), true));
        }
        long seconds = Math.max(1, (wait.get().toMillis() + 999) / 1000);
        throw ApiProblem.withHeaders(
                HttpStatus.SERVICE_UNAVAILABLE,
                "psp_unavailable",
                "The PSP is failing;"
                        + " no payment was attempted and nothing was stored. Retry after " + seconds + " s with the"
                        + " same Idempotency-Key.",
                Map.of("Retry-After", Long.toString(seconds)));
    }

    /** Takes over one stuck attempt if no one else has; empty when another worker or a client retry won. */
    public Optional<PaymentAnswer> recover(KeyRecord stuck) {
        return keys.takeOver(stuck, clock.instant())
                .map(attempt -> runner.resume(attempt(payment(stuck.resourceId())), stuck.clientKey(), attempt));
    }

    /**
     * A person's decision on a payment parked for review, after checking with the PSP out of band: captured,
     * only authorized, or certainly not charged. Goes through the same fenced phase 3 as every other outcome.
     */
    public Optional<PaymentAnswer> resolveManually(PaymentId id, ChargeOutcome decided) {
        Payment payment = payments.find(id).orElseThrow(() -> new IllegalStateException("no payment " + id));
        return runner.decide(attempt(payment), keys.findUnfinishedByResource(OPERATION, id.value()), decided);
    }

    /**
     * Applies what a PSP notification says about a payment's charge, through the same fenced phase 3 as every
     * other outcome (L4, L10). A payment already past that point records the notification and changes nothing; a
     * notification carrying no outcome changes nothing; a live owner is never displaced (it retries later). A
     * notification from an account that does not hold the payment changes nothing at all (L11).
     */
    public NotificationResult applyNotification(NotificationSource source, String providerKey, ChargeOutcome outcome) {
        Optional<Payment> found = payments.findByProviderKey(providerKey);
        if (found.isEmpty()) {
            return NotificationResult.UNMATCHED;
        }
        Payment payment = found.get();
        if (!psps.speaksFor(source, payment.merchant(), payment.pspAccount())) {
            return NotificationResult.FOREIGN;
        }
        if (payment.status() != PaymentStatus.PENDING && payment.status() != PaymentStatus.UNKNOWN) {
            return NotificationResult.agreesWith(payment.status(), outcome);
        }
        if (outcome instanceof ChargeOutcome.Unknown) {
            return NotificationResult.IGNORED;
        }
        return runner.applyUnlessOwned(
                attempt(payment),
                keys.findUnfinishedByResource(OPERATION, payment.id().value()),
                outcome);
    }

    /** A payment's charge (or authorization) as the runner drives it: its PSP call, its lookup, its phase 3. */
    private Attempt attempt(Payment payment) {
        // Sent, looked up and recovered through the account it recorded in phase 1, never the merchant's setting now.
        Supplier<PaymentProvider> psp = Attempt.once(() -> psps.forPayment(payment.merchant(), payment.pspAccount()));
        Supplier<PspRequest> charge = Attempt.once(() -> new PspRequest.Charge(
                payment.providerKey(),
                payment.amount(),
                payment.paymentMethod(),
                payment.reference(),
                !payment.isManualCapture()));
        return new Attempt() {
            @Override
            public PaymentId payment() {
                return payment.id();
            }

            @Override
            public PaymentProvider psp() {
                return psp.get();
            }

            @Override
            public Instant firstSentAt() {
                return payment.createdAt();
            }

            @Override
            public ChargeOutcome send() {
                return psp.get().execute(charge.get());
            }

            @Override
            public ChargeOutcome sendOnce() {
                return psp.get().executeOnce(charge.get());
            }

            @Override
            public LookupResult lookup() {
                return psp.get().lookup(charge.get());
            }

            @Override
            public PaymentAnswer record(ClientKey ck, int attempt, ChargeOutcome outcome, String reviewReason) {
                // with concurrent payments' final outcomes in one transaction when they queue (PhaseThreeBatches)
                return recordings.record(payment, ck, attempt, outcome, reviewReason);
            }

            @Override
            public Payment current() {
                return payments.find(payment.id()).orElseThrow();
            }
        };
    }

    public Optional<Payment> find(MerchantId merchant, PaymentId id) {
        return payments.find(merchant, id);
    }

    public List<Payment> findByReference(MerchantId merchant, String reference) {
        return payments.findByReference(merchant, reference);
    }

    private Payment payment(UUID id) {
        return payments.find(new PaymentId(id))
                .orElseThrow(() -> new IllegalStateException("key points at missing payment " + id));
    }
}

package dev.kopek.payments;

import dev.kopek.idempotency.Claim;
import dev.kopek.idempotency.ClientKey;
import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.idempotency.KeyRecord;
import dev.kopek.idempotency.KeyStatus;
import dev.kopek.platform.ConnectionWait;
import dev.kopek.psp.ChargeOutcome;
import java.time.Clock;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The one runner of every attempt at the PSP — payments, captures, voids and refunds (docs/pipeline.md): the first
 * call, resume by lookup inside the key window, an outcome a PSP notification brings, and a person's decision all
 * end in the kind's fenced phase 3. What differs per kind is an {@link Attempt}.
 */
@Component
class AttemptRunner {

    private static final Logger log = LoggerFactory.getLogger(AttemptRunner.class);

    private final IdempotencyKeys keys;
    private final KeyWindow keyWindow;
    private final AfterPspCall afterPspCall;
    private final Clock clock;
    private final ConnectionWait connectionWait;

    AttemptRunner(
            IdempotencyKeys keys,
            KeyWindow keyWindow,
            Optional<AfterPspCall> afterPspCall,
            Clock clock,
            ConnectionWait connectionWait) {
        this.keys = keys;
        this.keyWindow = keyWindow;
        this.afterPspCall = afterPspCall.orElse((payment, outcome) -> {});
        this.clock = clock;
        this.connectionWait = connectionWait;
    }

    /** Phase 2 of the first owner: the first PSP call, nothing held (L3), then phase 3. */
    PaymentAnswer start(Attempt attempt, ClientKey ck, int owner) {
        ChargeOutcome outcome = attempt.send();
        afterPspCall.accept(attempt.payment(), outcome);
        return recordOrReport(attempt, ck, owner, outcome, null);
    }

    /**
     * Phase 1's outcome when the key was claimed in a transaction, the same for every kind: a new owner starts, an
     * owner that reclaimed the key resumes by lookup, and a key someone else holds answers what its state says.
     * {@code attemptOf} gives the attempt of the resource the key names.
     */
    PaymentAnswer afterClaim(Claim claim, ClientKey ck, Function<UUID, Attempt> attemptOf) {
        return switch (claim) {
            case Claim.Owned owned
            when owned.reclaimed() -> resume(attemptOf.apply(owned.resourceId()), ck, owned.attempt());
            case Claim.Owned owned -> start(attemptOf.apply(owned.resourceId()), ck, owned.attempt());
            case Claim.Replay replay -> new PaymentAnswer.Final(replay.status(), replay.body(), true);
            case Claim.InFlight inFlight -> new PaymentAnswer.InFlight(inFlight.retryAfter());
            case Claim.Awaiting awaiting ->
                new PaymentAnswer.Processing(
                        attemptOf.apply(awaiting.resourceId()).current());
            case Claim.Mismatch mismatch -> new PaymentAnswer.KeyReused();
        };
    }

    /** A later owner asks the PSP by key before anything else, and decides as every kind does (L5, L6). */
    PaymentAnswer resume(Attempt attempt, ClientKey ck, int owner) {
        // Reclaims are counted, per kind, where the key is taken over (IdempotencyKeys.takeOver).
        log.info("resuming attempt: payment={} key#={} attempt={}", attempt.payment(), ck.hash(), owner);
        LookupDecision next = LookupDecision.after(
                attempt.lookup(),
                keyWindow.isOpen(attempt.psp(), attempt.firstSentAt()),
                keys.properties().maySend(owner),
                owner,
                attempt::sendOnce);
        return recordOrReport(attempt, ck, owner, next.outcome(), next.reviewReason());
    }

    /**
     * An outcome learned outside the call (a PSP notification), through phase 3 after taking the key over — never
     * from an owner whose lease is live (L4). APPLIED only when this take-over's phase 3 recorded the outcome; RETRY
     * when someone owns the key, or took it over before our phase 3 (a reconciler, a person, another notification):
     * the notification stays in the inbox and is decided again against what that writer left (agrees, conflicts).
     */
    NotificationResult applyUnlessOwned(Attempt attempt, Optional<KeyRecord> key, ChargeOutcome outcome) {
        return key.flatMap(k -> keys.takeOverUnlessOwned(k).map(owner -> {
                    afterPspCall.afterNotificationTakeOver(attempt.payment(), outcome);
                    return recordOrReport(attempt, k.clientKey(), owner, outcome, null);
                }))
                .map(answer -> answer instanceof PaymentAnswer.Final f && !f.replayed()
                        ? NotificationResult.APPLIED
                        : NotificationResult.RETRY)
                .orElse(NotificationResult.RETRY);
    }

    /** A person's decision on an attempt parked for review, through the same fenced phase 3. */
    Optional<PaymentAnswer> decide(Attempt attempt, Optional<KeyRecord> key, ChargeOutcome decided) {
        return key.flatMap(k ->
                keys.takeOverWithAnswer(k).map(owner -> recordOrReport(attempt, k.clientKey(), owner, decided, null)));
    }

    /**
     * Phase 3, or — when someone else owns the key by now — the answer their state gives. The PSP has answered, so
     * phase 3 rides through a failover (ConnectionWait.throughOutage). A try that failed with the database gone may
     * have committed before its answer was lost: the next try first reads the key, and a key no longer in progress
     * under this attempt means that commit happened (only this owner moves it out of progress) or that another owner
     * took over — either way its state is the answer, and phase 3 is not run twice (docs/pipeline.md, "When the
     * database goes away").
     */
    PaymentAnswer recordOrReport(Attempt attempt, ClientKey ck, int owner, ChargeOutcome outcome, String review) {
        return connectionWait.throughOutage("phase 3 of " + attempt.payment() + " attempt " + owner, tries -> {
            if (tries > 1) {
                KeyRecord key = keyOf(ck);
                if (key.attempt() != owner || key.status() != KeyStatus.IN_PROGRESS) {
                    return PaymentAnswer.fromKey(key, attempt::current, clock.instant());
                }
            }
            try {
                return attempt.record(ck, owner, outcome, review);
            } catch (StaleAttempt stale) {
                return PaymentAnswer.fromKey(keyOf(ck), attempt::current, clock.instant());
            }
        });
    }

    private KeyRecord keyOf(ClientKey ck) {
        return keys.find(ck).orElseThrow(() -> new IllegalStateException("key vanished while unfinished: " + ck));
    }
}

package dev.kopek.simulator;

import java.time.DateTimeException;
import java.time.Instant;
import java.util.function.Supplier;
import tools.jackson.databind.node.ObjectNode;

/**
 * The acquirer's side of one charge: its outcome, how much is captured, refunded, released or disputed.
 * All mutable state is guarded by this object's monitor; an operation runs its checks and its effect in
 * one {@link #atomically} block, so concurrent captures or refunds can never overdraw it.
 */
final class ChargeAccount {
    /** Where the charge stands in its creation: still processing (asynchronous), or decided. */
    enum Phase {
        PROCESSING,
        SUCCEEDED,
        DECLINED
    }

    /**
     * The outcome of a charge once decided: the record the charge ledger keeps, and the result body as a
     * node (for the webhook) and as the bytes every replay and lookup returns.
     */
    record Decided(ChargeRecord record, ObjectNode body, byte[] bytes) {
        boolean declined() {
            return ChargeRecord.DECLINED.equals(record.status());
        }
    }

    /** The charge's current state, as {@code GET /charges/{id}} shows it. */
    record View(
            String id,
            String status,
            String declineCode,
            long amount,
            long amountCapturable,
            long amountCaptured,
            long amountRefunded,
            String currency,
            String paymentMethod,
            String reference,
            String idempotencyKey,
            Instant createdAt,
            Instant expiresAt,
            boolean voided,
            Dispute dispute) {}

    private final String id;
    private final String idempotencyKey;
    private final ChargeRequest request;
    private final Instant createdAt;
    /** When an authorization lapses; null for a charge captured when made. */
    private final Instant expiresAt;

    private Phase phase = Phase.PROCESSING;
    private String declineCode;
    private byte[] resultBody;
    private long captured;
    private long refunded;
    /** No more captures: captured when made, a final capture, everything captured, or voided. */
    private boolean captureClosed;

    private boolean voided;
    private Dispute dispute;

    ChargeAccount(String id, String idempotencyKey, ChargeRequest request, Instant createdAt, long ttlSeconds) {
        this.id = id;
        this.idempotencyKey = idempotencyKey;
        this.request = request;
        this.createdAt = createdAt;
        this.expiresAt = request.capture() ? null : plusSaturating(createdAt, ttlSeconds);
    }

    private static Instant plusSaturating(Instant instant, long seconds) {
        try {
            return instant.plusSeconds(seconds);
        } catch (DateTimeException | ArithmeticException e) {
            return Instant.MAX;
        }
    }

    String id() {
        return id;
    }

    String idempotencyKey() {
        return idempotencyKey;
    }

    long amount() {
        return request.amount();
    }

    String currency() {
        return request.currency();
    }

    String paymentMethod() {
        return request.paymentMethod();
    }

    boolean authorization() {
        return !request.capture();
    }

    Instant expiresAt() {
        return expiresAt;
    }

    /** Runs checks and effects as one step with respect to every other operation on this charge. */
    synchronized <T> T atomically(Supplier<T> action) {
        return action.get();
    }

    /**
     * Decides the charge, once: declined when {@code code} is non-null, else captured or authorized as
     * requested. The record's {@code createdAt} is the creation time, even for an asynchronous charge.
     */
    synchronized Decided decide(String code) {
        if (phase != Phase.PROCESSING) {
            throw new IllegalStateException("charge " + id + " is already decided");
        }
        String status = code != null
                ? ChargeRecord.DECLINED
                : request.capture() ? ChargeRecord.SUCCEEDED : ChargeRecord.AUTHORIZED;
        ChargeRecord record = new ChargeRecord(
                id,
                idempotencyKey,
                request.amount(),
                request.currency(),
                request.paymentMethod(),
                request.reference(),
                status,
                code,
                createdAt);
        declineCode = code;
        phase = code == null ? Phase.SUCCEEDED : Phase.DECLINED;
        if (code == null && request.capture()) {
            captured = request.amount();
            captureClosed = true;
        }
        ObjectNode body = ChargeRecord.AUTHORIZED.equals(status)
                ? Json.authorizationNode(record, request.amount(), expiresAt)
                : Json.chargeNode(record);
        resultBody = Json.bytes(body);
        return new Decided(record, body, resultBody);
    }

    /** What a lookup by the charge's key shows: processing until decided, then the decided result. */
    synchronized byte[] lookupBody() {
        return resultBody != null
                ? resultBody
                : Json.bytes(Json.processingNode(id, idempotencyKey, request, createdAt));
    }

    synchronized View view(Instant now) {
        return new View(
                id,
                status(now),
                declineCode,
                request.amount(),
                capturable(now),
                captured,
                refunded,
                request.currency(),
                request.paymentMethod(),
                request.reference(),
                idempotencyKey,
                createdAt,
                expiresAt,
                voided,
                dispute);
    }

    // ---- The methods below expect the caller to hold the monitor (see atomically). ----

    /** processing | declined | voided | expired | authorized | partially_captured | captured. */
    String status(Instant now) {
        return switch (phase) {
            case PROCESSING -> "processing";
            case DECLINED -> "declined";
            case SUCCEEDED -> {
                if (voided) {
                    yield "voided";
                }
                if (captured == 0) {
                    yield expired(now) ? "expired" : "authorized";
                }
                yield captureClosed || expired(now) ? "captured" : "partially_captured";
            }
        };
    }

    boolean expired(Instant now) {
        return expiresAt != null && !now.isBefore(expiresAt);
    }

    /** What may still be captured now: 0 unless an open, unexpired authorization. */
    long capturable(Instant now) {
        boolean open = phase == Phase.SUCCEEDED && authorization() && !voided && !captureClosed && !expired(now);
        return open ? request.amount() - captured : 0;
    }

    long refundable() {
        return captured - refunded;
    }

    /** Why a capture of {@code amount} is refused, or null. */
    String captureRefusal(long amount, Instant now) {
        String refusal = undecidedRefusal();
        if (refusal != null) {
            return refusal;
        }
        if (!authorization()) {
            return "already_captured";
        }
        if (voided) {
            return "authorization_voided";
        }
        if (captureClosed) {
            return "capture_finalized";
        }
        if (expired(now)) {
            return "authorization_expired";
        }
        return amount > capturable(now) ? "amount_exceeds_capturable" : null;
    }

    String voidRefusal(Instant now) {
        String refusal = undecidedRefusal();
        if (refusal != null) {
            return refusal;
        }
        if (voided) {
            return "authorization_voided";
        }
        if (!authorization() || captured > 0) {
            return "already_captured";
        }
        return expired(now) ? "authorization_expired" : null;
    }

    String refundRefusal(long amount) {
        String refusal = undecidedRefusal();
        if (refusal != null) {
            return refusal;
        }
        if (dispute != null && !Dispute.WON.equals(dispute.status())) {
            return "charge_disputed";
        }
        return amount <= 0 || amount > refundable() ? "amount_exceeds_refundable" : null;
    }

    String disputeRefusal(long amount) {
        String refusal = undecidedRefusal();
        if (refusal != null) {
            return refusal;
        }
        if (captured == 0) {
            return "charge_not_captured";
        }
        if (dispute != null) {
            return "already_disputed";
        }
        // A cardholder may dispute the whole charge even after a partial refund (the issuer need not know of it):
        // the acquirer takes back up to what was captured, and the merchant contests with the refund as evidence.
        return amount <= 0 || amount > captured ? "amount_exceeds_disputable" : null;
    }

    private String undecidedRefusal() {
        return switch (phase) {
            case PROCESSING -> "charge_processing";
            case DECLINED -> "charge_declined";
            case SUCCEEDED -> null;
        };
    }

    /** Captures {@code amount}; returns what remains capturable. {@code last} releases the rest. */
    long capture(long amount, boolean last, Instant now) {
        captured += amount;
        if (last || captured == request.amount()) {
            captureClosed = true;
        }
        return capturable(now);
    }

    /** Voids the authorization; returns the amount released. */
    long voidAuthorization() {
        voided = true;
        captureClosed = true;
        return request.amount() - captured;
    }

    void refund(long amount) {
        refunded += amount;
    }

    Dispute dispute() {
        return dispute;
    }

    void dispute(Dispute next) {
        dispute = next;
    }
}

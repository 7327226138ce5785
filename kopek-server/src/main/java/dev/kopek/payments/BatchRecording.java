package dev.kopek.payments;

import dev.kopek.events.BusinessEvent;
import dev.kopek.idempotency.ClientKey;
import dev.kopek.money.PaymentId;
import dev.kopek.platform.SqlPart;
import dev.kopek.psp.ChargeOutcome;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What a kind adds to a batch of phase 3s ({@link PhaseThreeBatches}), beside its {@link Recording} for the one-request
 * path: which outcomes it batches, and the parts of the batch's two statements built from arrays — the fenced moves
 * of every request, then every answer's effects. The batch itself (who goes together, the fence, the stored answers,
 * the events, a row left to run alone, a batch refused as a whole) is written once, in {@link PhaseThreeBatches}.
 */
interface BatchRecording<R> extends Recording<R> {

    /** Whether {@code outcome} for {@code resource} goes through a batch; otherwise it runs alone. */
    boolean batches(R resource, ChargeOutcome outcome);

    /** The payment the request moves: a batch moves each payment for one request at most. */
    PaymentId paymentOf(R resource);

    /**
     * The batch's first statement: {@code fence} ({@code IdempotencyKeys.fenceEachPart}) and each request's move to
     * what its outcome means. The settled moves by {@link #subjectId} (the key's resource); a request left out moved
     * nothing and runs alone.
     */
    Map<UUID, Moved<R>> moveEach(SqlPart fence, List<Recordable<R>> requests);

    /**
     * The answers of the moves of the first statement, in their order, and the parts of the second statement that
     * write the rest of their effects beside the stored answers and the events.
     */
    Answers answerEach(List<Moved<R>> moved);

    /** What the request's own thread does after the batch committed its outcome ({@code moved}): count it, log it. */
    void settled(R moved, ChargeOutcome outcome);

    /** One request of a batch: the resource as its attempt read it, its key, its owner and the PSP's outcome. */
    record Recordable<R>(R resource, ClientKey ck, int attempt, ChargeOutcome outcome) {}

    /**
     * The stored answers and their events ({@code answers}, in the order of the moves), and {@code parts}: CTEs of
     * the answer's statement that read {@code IdempotencyKeys.COMPLETED_EACH}, of which those {@code required} names
     * must each write the number of rows it gives.
     */
    record Answers(List<Answered> answers, List<SqlPart> parts, Map<String, Integer> required) {}

    /** One request's stored answer, and the events its outcome announces. */
    record Answered(int status, String body, List<BusinessEvent> events) {}
}

package dev.kopek.simulator;

/**
 * HTTP adaptors for operations on existing charges: captures, voids and refunds, each with its lookup
 * by key ({@code GET} on the same collection with {@code ?idempotency_key=}).
 */
final class FollowUpEndpoints {
    private final FollowUpProcessor processor;
    private final Simulation simulation;

    FollowUpEndpoints(Simulation simulation) {
        this.simulation = simulation;
        this.processor = new FollowUpProcessor(simulation);
    }

    void register(Router router) {
        router.route("POST", "/charges/{id}/captures", this::capture)
                .route("GET", "/charges/{id}/captures", r -> lookup(Operation.CAPTURE, r, r.pathParam("id")))
                .route("POST", "/charges/{id}/void", this::voidAuthorization)
                .route("GET", "/charges/{id}/void", r -> lookup(Operation.VOID, r, r.pathParam("id")))
                .route("POST", "/refunds", this::refund)
                .route("GET", "/refunds", r -> lookup(Operation.REFUND, r, null));
    }

    private Answer capture(Request request) throws InterruptedException {
        String key = requestedKey(Operation.CAPTURE, request);
        return processor.capture(key, FollowUpRequest.Capture.parse(request.pathParam("id"), request.body()));
    }

    private Answer voidAuthorization(Request request) throws InterruptedException {
        String key = requestedKey(Operation.VOID, request);
        return processor.voidAuthorization(
                key, FollowUpRequest.VoidAuthorization.parse(request.pathParam("id"), request.body()));
    }

    private Answer refund(Request request) throws InterruptedException {
        String key = requestedKey(Operation.REFUND, request);
        return processor.refund(key, FollowUpRequest.Refund.parse(request.body()));
    }

    /** The request's key, counted before validation like charge requests. */
    private String requestedKey(Operation operation, Request request) {
        String key = IdempotencyKey.fromHeader(request.header(IdempotencyKey.HEADER));
        simulation.books().scope(operation).counters().requested(key);
        return key;
    }

    private Answer lookup(Operation operation, Request request, String chargeId) {
        return processor.lookup(operation, IdempotencyKey.require(request.queryParam("idempotency_key")), chargeId);
    }
}

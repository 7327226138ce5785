package dev.kopek.simulator;

import tools.jackson.databind.JsonNode;

/** {@code POST /_sim/charges/{id}/dispute} and {@code POST /_sim/disputes/{id}/resolve}. */
final class DisputeEndpoints {
    private final DisputeDesk desk;

    DisputeEndpoints(Simulation simulation) {
        this.desk = new DisputeDesk(simulation);
    }

    void register(Router router) {
        router.route("POST", "/_sim/charges/{id}/dispute", this::open)
                .route("POST", "/_sim/disputes/{id}/resolve", this::resolve);
    }

    private Answer open(Request request) {
        JsonNode body = Json.parseObjectOrEmpty(request.body());
        JsonNode amount = body.get("amount");
        JsonNode reason = body.get("reason");
        if (reason != null
                && !reason.isNull()
                && (!reason.isString() || reason.stringValue().isBlank())) {
            throw new BadRequest("invalid_request", "reason must be a non-blank string");
        }
        Dispute dispute = desk.open(
                request.pathParam("id"),
                amount == null || amount.isNull() ? null : ChargeRequest.amount(amount),
                reason == null || reason.isNull() ? null : reason.stringValue());
        return Json.reply(201, Json.disputeNode(dispute));
    }

    private Answer resolve(Request request) {
        JsonNode outcome = Json.parseObjectOrEmpty(request.body()).get("outcome");
        if (outcome == null
                || !outcome.isString()
                || !(Dispute.WON.equals(outcome.stringValue()) || Dispute.LOST.equals(outcome.stringValue()))) {
            throw new BadRequest("invalid_request", "outcome must be won or lost");
        }
        Dispute dispute = desk.resolve(request.pathParam("id"), Dispute.WON.equals(outcome.stringValue()));
        return Json.ok(Json.disputeNode(dispute));
    }
}

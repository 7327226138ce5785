package dev.kopek.simulator;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code /_sim/webhooks}: what was sent and delivered, how many copies are still under way, manual events, resends
 * and batch flushes.
 */
final class WebhookEndpoints {
    private final Simulation simulation;

    WebhookEndpoints(Simulation simulation) {
        this.simulation = simulation;
    }

    void register(Router router) {
        router.route("GET", "/_sim/webhooks", this::list)
                .route("GET", "/_sim/webhooks/pending", this::pending)
                .route("POST", "/_sim/webhooks", this::send)
                .route("POST", "/_sim/webhooks/flush", this::flush)
                .route("POST", "/_sim/webhooks/{id}/resend", this::resend);
    }

    private Answer list(Request request) {
        WebhookSender sender = simulation.books().webhooks();
        return Json.ok(Json.webhooks(sender.events(), sender.deliveries()));
    }

    /** A harness waits on this before it judges: a copy still being retried may yet change the receiver's books. */
    private Answer pending(Request request) {
        return Json.ok(
                Json.object().put("pending", simulation.books().webhooks().underWay()));
    }

    private Answer send(Request request) {
        JsonNode body = Json.parseObjectOrEmpty(request.body());
        JsonNode type = body.get("type");
        JsonNode data = body.get("data");
        if (type == null || !type.isString() || type.stringValue().isBlank()) {
            throw new BadRequest("invalid_request", "type is required");
        }
        if (data == null || !data.isObject()) {
            throw new BadRequest("invalid_request", "data must be a JSON object");
        }
        WebhookEvent event = simulation.sendWebhook(type.stringValue(), (ObjectNode) data);
        return Json.reply(202, Json.object().put("id", event.id()).put("type", event.type()));
    }

    private Answer flush(Request request) {
        simulation.books().webhooks().flush();
        return new Answer.Reply(204, new byte[0]);
    }

    private Answer resend(Request request) {
        String id = request.pathParam("id");
        simulation.books().webhooks().resend(id, simulation.config().webhooks());
        return Json.reply(202, Json.object().put("id", id));
    }
}

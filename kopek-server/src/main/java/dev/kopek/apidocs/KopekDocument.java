package dev.kopek.apidocs;

import dev.kopek.outbox.EventTypes;
import dev.kopek.platform.ProblemCode;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.parameters.RequestBody;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springdoc.core.customizers.OpenApiCustomizer;

/**
 * Completes springdoc's document: the overlay's descriptions on the generated operations, the overlay's components,
 * the problem codes from {@link ProblemCode}, the event types from {@link EventTypes}, and one OpenAPI
 * {@code webhooks} entry per event type, so every payload Kopek posts to a merchant is described.
 */
final class KopekDocument implements OpenApiCustomizer {

    private final DocumentOverlay overlay;

    KopekDocument(DocumentOverlay overlay) {
        this.overlay = overlay;
    }

    @Override
    public void customise(OpenAPI document) {
        document.setInfo(overlay.document().getInfo());
        document.setComponents(components(document.getComponents()));
        if (document.getPaths() != null) {
            document.getPaths()
                    .forEach((path, item) ->
                            item.readOperationsMap().forEach((method, operation) -> describe(path, method, operation)));
        }
        document.setWebhooks(webhooks(document.getComponents()));
    }

    private void describe(String path, PathItem.HttpMethod method, Operation operation) {
        overlay.operation(path, method).ifPresent(described -> {
            operation.setOperationId(described.getOperationId());
            operation.setSummary(described.getSummary());
            operation.setDescription(described.getDescription());
            operation.setTags(described.getTags());
            if (described.getRequestBody() != null) {
                operation.setRequestBody(described.getRequestBody());
            }
            ApiResponses merged = new ApiResponses();
            described.getResponses().forEach(merged::addApiResponse);
            // The problem responses come from the handler's declarations (ContractOperations); springdoc's own
            // guess at the success answer (a string, for handlers that render JSON themselves) gives way.
            operation.getResponses().forEach((status, response) -> {
                if (!status.startsWith("2")) {
                    merged.putIfAbsent(status, response);
                }
            });
            operation.setResponses(merged);
        });
    }

    private Components components(Components generated) {
        Components components = generated == null ? new Components() : generated;
        Components described = overlay.document().getComponents();
        described.getSchemas().forEach(components::addSchemas);
        described.getResponses().forEach(components::addResponses);
        described.getParameters().forEach(components::addParameters);
        described.getHeaders().forEach(components::addHeaders);
        described.getSecuritySchemes().forEach(components::addSecuritySchemes);
        components.addSchemas("EventType", eventType());
        components.addSchemas("ProblemCode", problemCode());
        ContractOperations.problemExamples().forEach(components::addExamples);
        overlay.examples().forEach((name, example) -> {
            Schema<?> schema = components.getSchemas().get(name);
            if (schema == null) {
                throw new IllegalStateException(
                        DocumentOverlay.EXAMPLES + " has an example of " + name + ", which is no component schema");
            }
            schema.setExample(example);
        });
        return components;
    }

    private static Schema<?> eventType() {
        Schema<String> schema = new Schema<>();
        schema.addType("string");
        schema.setDescription("The type of an event in GET /v1/events, on Kafka and in signed webhooks, and the types "
                + "a webhook endpoint may subscribe to (besides \"*\"): exactly the types Kopek emits.");
        schema.setEnum(new ArrayList<>(EventTypes.known()));
        return schema;
    }

    /** Every code Kopek can answer, each with its meaning and the client's action (GET /problems/{code}). */
    @SuppressWarnings("rawtypes")
    private static Schema<?> problemCode() {
        Schema<String> schema = new Schema<>();
        schema.addType("string");
        schema.setDescription("A problem's stable code. GET /problems/{code} explains it.");
        List<Schema> codes = new ArrayList<>();
        for (ProblemCode code : ProblemCode.values()) {
            Schema<String> one = new Schema<>();
            one.setConst(code.code());
            one.setTitle(code.code());
            one.setDescription(code.meaning() + " What to do (" + code.action().apiName() + "): "
                    + code.action().advice() + " HTTP " + code.statuses() + ".");
            codes.add(one);
        }
        schema.setOneOf(codes);
        return schema;
    }

    /** One webhook per event type: the signed POST Kopek sends to an endpoint subscribed to it. */
    private static Map<String, PathItem> webhooks(Components components) {
        Map<String, PathItem> webhooks = new TreeMap<>();
        for (String type : EventTypes.known()) {
            webhooks.put(type, new PathItem().post(delivery(type, example(type, components))));
        }
        return webhooks;
    }

    /**
     * The event of this type as a webhook body shows it: the recorded Event example (a real event) with this type,
     * its resource, and the example of the resource it carries, whose status is the one the type names when that is
     * one of the resource's statuses ({@code refund.failed}: a failed refund). Null when there is no Event example.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static Map<String, Object> example(String type, Components components) {
        Map<String, Schema> schemas = components.getSchemas();
        Object event =
                schemas.get("Event") == null ? null : schemas.get("Event").getExample();
        Schema<?> resourceSchema = schemas.get(resourceSchema(type));
        if (!(event instanceof Map<?, ?> recorded)
                || resourceSchema == null
                || !(resourceSchema.getExample() instanceof Map<?, ?> resourceExample)) {
            return null;
        }
        Map<String, Object> data = new LinkedHashMap<>((Map<String, Object>) resourceExample);
        String outcome = type.substring(type.indexOf('.') + 1);
        Schema<?> status = resourceSchema.getProperties() == null
                ? null
                : resourceSchema.getProperties().get("status");
        if (data.containsKey("status")
                && status != null
                && status.getEnum() != null
                && status.getEnum().contains(outcome)) {
            data.put("status", outcome);
        }
        Map<String, Object> example = new LinkedHashMap<>((Map<String, Object>) recorded);
        example.put("type", type);
        Map<String, Object> resource = new LinkedHashMap<>((Map<String, Object>) recorded.get("resource"));
        resource.put("type", type.substring(0, type.indexOf('.')));
        resource.put("id", data.get("id"));
        example.put("resource", resource);
        example.put("data", data);
        return example;
    }

    private static Operation delivery(String type, Map<String, Object> example) {
        Schema<String> signature = new Schema<>();
        signature.addType("string");
        Schema<Object> constType = new Schema<>();
        constType.setConst(type);
        Schema<Object> typed = new Schema<>();
        typed.addProperty("type", constType);
        typed.addProperty("data", new Schema<>().$ref("#/components/schemas/" + resourceSchema(type)));
        Schema<Object> body = new Schema<>();
        body.setAllOf(List.of(new Schema<>().$ref("#/components/schemas/Event"), typed));
        return new Operation()
                .operationId("webhook_" + type.replace('.', '_'))
                .summary(type)
                .description("Kopek POSTs this event to every enabled endpoint subscribed to " + type + " (or to *). "
                        + "Verify Kopek-Signature over the raw body before parsing (kopek-client's Webhooks.receive "
                        + "does), answer 2xx quickly, and deduplicate by id: deliveries are at least once, retried "
                        + "with backoff until a 2xx, and every copy carries the same id.")
                .addTagsItem("webhooks")
                .addParametersItem(new Parameter()
                        .in("header")
                        .name("Kopek-Signature")
                        .required(true)
                        .description("t=<unix seconds>,v1=<hex HMAC-SHA256 of \"<t>.<raw body>\" with the endpoint's "
                                + "secret>; several v1 during a secret rotation")
                        .schema(signature))
                .requestBody(new RequestBody()
                        .required(true)
                        .content(new Content()
                                .addMediaType(
                                        "application/json",
                                        example == null
                                                ? new MediaType().schema(body)
                                                : new MediaType().schema(body).example(example))))
                .responses(
                        new ApiResponses()
                                .addApiResponse(
                                        "2XX",
                                        new ApiResponse()
                                                .description(
                                                        "Received. Any other answer, or none within the timeout, is retried.")));
    }

    /** The resource an event's data carries, by the event type's prefix. */
    static String resourceSchema(String type) {
        String resource = type.substring(0, type.indexOf('.'));
        return switch (resource) {
            case "payment" -> "Payment";
            case "capture", "void" -> "Operation";
            case "refund" -> "Refund";
            case "dispute" -> "Dispute";
            case "webhook_endpoint" -> "WebhookEndpoint";
            default -> throw new IllegalStateException("an event type of an undocumented resource: " + type);
        };
    }
}

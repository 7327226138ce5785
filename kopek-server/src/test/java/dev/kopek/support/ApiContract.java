package dev.kopek.support;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The OpenAPI document Kopek serves at {@code /openapi}, held against the answers Kopek really gives: every JSON
 * answer a test receives through {@link Api} must match the schema the document declares for its route, method and
 * status; a success or problem status the document does not declare for the route is a failure, and so is a
 * problem {@code code} its response does not list. So the document cannot drift from the code without some test
 * noticing.
 *
 * <p>The check is stricter than the document's own words, because a client generated from it relies on both: an
 * object may hold no property the document does not name, and must hold every property it names unless the schema
 * lists its {@code required} ones itself (the answers render every field, null when empty).
 */
public final class ApiContract {

    private static final Map<URI, ApiContract> BY_SERVER = new ConcurrentHashMap<>();
    private static final String DOCUMENT = "urn:kopek:openapi";
    private static final String COMPONENTS = "#/components/schemas/";
    private static final Pattern SECRETS = Pattern.compile("(\"(?:secret|token)\"\\s*:\\s*)\"[^\"]*\"");
    /** Operations an answer was checked for, as "METHOD template status", by every test so far in this JVM. */
    private static final Set<String> CHECKED = ConcurrentHashMap.newKeySet();
    /** Mismatches noted instead of thrown while {@link #collecting} runs, so one run shows them all. */
    private static final List<String> COLLECTED = Collections.synchronizedList(new ArrayList<>());

    private static volatile boolean collect;
    /** The first checked answer whose schema is a component, by the component's name: candidate examples. */
    private static final Map<String, String> ANSWERS = new ConcurrentHashMap<>();

    private final JsonNode document;
    private final List<Route> routes;
    private final SchemaRegistry registry;
    private final Map<String, Schema> schemas = new ConcurrentHashMap<>();

    private record Route(String template, Pattern pattern, int parameters, JsonNode item) {}

    private ApiContract(JsonNode served) {
        ObjectNode strict = (ObjectNode) served.deepCopy();
        tighten(strict, allOfParts(strict));
        this.document = strict;
        this.routes = routes(strict);
        this.registry = SchemaRegistry.withDialect(
                Dialects.getOpenApi31(), builder -> builder.schemas(Map.of(DOCUMENT, strict.toString())));
    }

    /** The document of the Kopek at {@code base}, fetched once. */
    public static ApiContract of(URI base) {
        return BY_SERVER.computeIfAbsent(base.resolve("/"), ApiContract::fetch);
    }

    public static Set<String> checkedSoFar() {
        return Set.copyOf(CHECKED);
    }

    /** Runs {@code calls} noting every mismatch instead of failing at the first; returns them. */
    public static List<String> collecting(Runnable calls) {
        COLLECTED.clear();
        collect = true;
        try {
            calls.run();
        } finally {
            collect = false;
        }
        return List.copyOf(COLLECTED);
    }

    public static Map<String, String> answersByComponent() {
        return Map.copyOf(ANSWERS);
    }

    /** The document as served, with the strictness above applied. */
    public JsonNode document() {
        return document;
    }

    /**
     * Fails with every mismatch when a JSON answer does not match its declared schema, when a 2xx, 4xx or 5xx status
     * is not declared for the route, or when a problem's code is not one its response lists. Routes and methods the
     * document does not know (a probe of an odd path, a method the route does not take) are not checked here.
     */
    public void check(String method, URI uri, int status, String contentType, String body) {
        Optional<Route> route = route(uri.getPath());
        if (route.isEmpty()) {
            return;
        }
        JsonNode operation = route.get().item().path(method.toLowerCase(Locale.ROOT));
        if (operation.isMissingNode()) {
            return;
        }
        String where = method + " " + route.get().template();
        JsonNode responses = operation.path("responses");
        String declared = declaredStatus(responses, status);
        String media =
                contentType == null ? "" : contentType.split(";")[0].trim().toLowerCase(Locale.ROOT);
        if (declared == null) {
            if (status / 100 == 2) {
                throw new AssertionError(where + " answered " + status + ", which the API document does not declare");
            }
            if (status >= 400) {
                mismatch(where + " answered " + status + problemCode(media, body)
                        + ", a status the API document does not declare for this route (see ProblemCodes)");
            }
            return;
        }
        CHECKED.add(where + " " + status);
        if (!media.endsWith("json") || body == null || body.isEmpty()) {
            return;
        }
        String at = responsePointer(route.get().template(), method, declared);
        if (status >= 400 && !declaresCode(at, media, body)) {
            mismatch(where + " answered " + status + problemCode(media, body)
                    + ", a code the API document does not declare for this route and status (see ProblemCodes)");
            return;
        }
        JsonNode response = document.at(at);
        JsonNode content = response.path("content").path(media);
        if (content.isMissingNode()) {
            if (status / 100 == 2) {
                throw new AssertionError(where + " " + status + " answered " + media
                        + ", which the API document does not declare for it");
            }
            return;
        }
        if (content.path("schema").isMissingNode()) {
            return;
        }
        JsonNode ref = content.path("schema").path("$ref");
        if (status / 100 == 2 && ref.isString() && ref.asString().startsWith(COMPONENTS)) {
            ANSWERS.putIfAbsent(ref.asString().substring(COMPONENTS.length()), body);
        }
        requireMatch(where, status, at + "/content/" + escape(media) + "/schema", body);
    }

    private void requireMatch(String where, int status, String pointer, String body) {
        if (body == null || body.isEmpty()) {
            return;
        }
        List<Error> errors = schema(pointer).validate(body, InputFormat.JSON);
        if (!errors.isEmpty()) {
            String mismatch = where + " " + status + " answered JSON that does not match the API document:\n  "
                    + String.join("\n  ", errors.stream().map(Error::toString).toList()) + "\nbody: " + masked(body);
            mismatch(mismatch);
        }
    }

    private static void mismatch(String mismatch) {
        if (collect) {
            COLLECTED.add(mismatch);
            return;
        }
        throw new AssertionError(mismatch);
    }

    /**
     * Whether a problem's {@code code} is one the response declares: each problem response lists its codes (an
     * {@code enum} beside the {@code Problem} schema), so a client knows which it may meet on this route.
     */
    private boolean declaresCode(String response, String media, String body) {
        JsonNode codes = document.at(response + "/content/" + escape(media) + "/schema/allOf/1/properties/code/enum");
        String code = code(body);
        if (codes.isMissingNode() || code == null) {
            return true;
        }
        for (JsonNode declared : codes) {
            if (declared.asString().equals(code)) {
                return true;
            }
        }
        return false;
    }

    private static String code(String body) {
        try {
            JsonNode code = Api.JSON.readTree(body).path("code");
            return code.isString() ? code.asString() : null;
        } catch (RuntimeException notJson) {
            return null;
        }
    }

    private static String problemCode(String media, String body) {
        String code = media.endsWith("json") && body != null && !body.isEmpty() ? code(body) : null;
        return code == null ? "" : " " + code;
    }

    /** Checks one JSON value against a component schema, for examples and payloads outside a route. */
    public List<String> mismatches(String component, JsonNode value) {
        return schema("/components/schemas/" + component).validate(value.toString(), InputFormat.JSON).stream()
                .map(Error::toString)
                .toList();
    }

    /** Checks one JSON value against the schema at {@code pointer} in the document (strict, as answers are). */
    public List<String> mismatchesAt(String pointer, JsonNode value) {
        return schema(pointer).validate(value.toString(), InputFormat.JSON).stream()
                .map(Error::toString)
                .toList();
    }

    /** The body as a failure message may show it: no secret or token, and not too long to read. */
    private static String masked(String body) {
        String masked = SECRETS.matcher(body).replaceAll("$1\"…\"");
        return masked.length() > 2_000 ? masked.substring(0, 2_000) + "…" : masked;
    }

    private Schema schema(String pointer) {
        return schemas.computeIfAbsent(pointer, p -> registry.getSchema(SchemaLocation.of(DOCUMENT + "#" + p)));
    }

    private static ApiContract fetch(URI base) {
        try {
            HttpResponse<String> response = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(base.resolve("/openapi"))
                                    .GET()
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("GET /openapi answered " + response.statusCode());
            }
            return new ApiContract(Api.JSON.readTree(response.body()));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The document's path template {@code path} falls under, as the handler mappings would match it. */
    public Optional<String> template(String path) {
        return route(path).map(Route::template);
    }

    private Optional<Route> route(String path) {
        return routes.stream().filter(r -> r.pattern().matcher(path).matches()).findFirst();
    }

    /** Literal routes before templated ones, so /v1/payments/{id} never swallows a literal sibling. */
    private static List<Route> routes(JsonNode document) {
        List<Route> routes = new ArrayList<>();
        document.path("paths").properties().forEach(path -> {
            String template = path.getKey();
            String regex = Pattern.quote(template).replaceAll("\\{[^}/]+}", "\\\\E[^/]+\\\\Q");
            routes.add(
                    new Route(template, Pattern.compile(regex), template.split("\\{", -1).length - 1, path.getValue()));
        });
        routes.sort(Comparator.comparingInt(Route::parameters));
        return List.copyOf(routes);
    }

    private static String declaredStatus(JsonNode responses, int status) {
        String exact = Integer.toString(status);
        if (responses.has(exact)) {
            return exact;
        }
        String range = status / 100 + "XX";
        if (responses.has(range)) {
            return range;
        }
        return responses.has("default") && status / 100 != 2 ? "default" : null;
    }

    /** Where a declared response sits in the document, following its {@code $ref}s to the response itself. */
    private String responsePointer(String template, String method, String status) {
        String at =
                "/paths/" + escape(template) + "/" + method.toLowerCase(Locale.ROOT) + "/responses/" + escape(status);
        for (JsonNode node = document.at(at); node.has("$ref"); node = document.at(at)) {
            at = refTarget(node);
        }
        return at;
    }

    private static String refTarget(JsonNode node) {
        return node.get("$ref").asString().substring(1);
    }

    private static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }

    /**
     * Every object schema in the copy, wherever it sits, refuses properties it does not name and requires the ones
     * it names unless it lists its own. A part of an {@code allOf} is left open and the whole is closed instead,
     * with {@code unevaluatedProperties}; so is a schema that says itself what else it allows.
     */
    private static void tighten(JsonNode node, Set<JsonNode> open) {
        if (node instanceof ArrayNode array) {
            array.forEach(element -> tighten(element, open));
            return;
        }
        if (!(node instanceof ObjectNode object)) {
            return;
        }
        if (object.has("allOf")) {
            object.get("allOf").forEach(open::add);
            if (!object.has("unevaluatedProperties")) {
                object.put("unevaluatedProperties", false);
            }
        } else if (object.has("properties") && !object.has("additionalProperties") && !open.contains(object)) {
            object.put("additionalProperties", false);
            if (!object.has("required")) {
                ArrayNode required = object.putArray("required");
                object.get("properties").propertyNames().forEach(required::add);
            }
        }
        object.values().forEach(child -> tighten(child, open));
    }

    /** The component schemas that some {@code allOf} names as one of its parts, in {@code document}. */
    private static Set<JsonNode> allOfParts(JsonNode document) {
        Set<JsonNode> parts = Collections.newSetFromMap(new IdentityHashMap<>());
        document.findValues("allOf")
                .forEach(all -> all.forEach(part -> {
                    if (part.has("$ref")) {
                        parts.add(document.at(part.get("$ref").asString().substring(1)));
                    }
                }));
        return parts;
    }
}

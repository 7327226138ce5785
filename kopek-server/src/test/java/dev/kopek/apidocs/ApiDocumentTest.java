package dev.kopek.apidocs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kopek.outbox.EventTypes;
import dev.kopek.platform.ProblemCatalogueTest;
import dev.kopek.platform.ProblemCode;
import dev.kopek.support.Api;
import dev.kopek.support.ApiContract;
import dev.kopek.support.IntegrationTest;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;

/**
 * The OpenAPI document is the code's: every route Spring maps is in it with a description and a typed success
 * answer, nothing is described that is not mapped, every reference resolves, every event type has its webhook and
 * every problem code its entry; the document, the browser and the problem pages are public.
 */
class ApiDocumentTest extends IntegrationTest {

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    private JsonNode document() {
        Api.Response response = new Api(baseUri(), null).get("/openapi");
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        return response.json();
    }

    /** Every mapped route as "METHOD path", springdoc's own document endpoints and the error page aside. */
    private Set<String> mappedRoutes() {
        Set<String> routes = new TreeSet<>();
        mappings.getHandlerMethods().forEach((info, handler) -> {
            if (ErrorController.class.isAssignableFrom(handler.getBeanType())
                    || handler.getBeanType() == ApiDocumentResource.class) {
                return;
            }
            for (String pattern : info.getPatternValues()) {
                if (pattern.equals("/console") || pattern.startsWith("/console/")) {
                    continue; // the operator console: HTML pages for people (Audience CONSOLE), not the API
                }
                for (RequestMethod method : info.getMethodsCondition().getMethods()) {
                    routes.add(method.name() + " " + pattern);
                }
            }
        });
        return routes;
    }

    @Test
    void everyMappedRouteIsDocumentedWithASummaryAndATypedSuccessAnswer() {
        JsonNode document = document();
        assertThat(document.get("openapi").asString()).startsWith("3.1");
        Set<String> routes = mappedRoutes();
        assertThat(routes).hasSizeGreaterThan(35);
        List<String> missing = new ArrayList<>();
        for (String route : routes) {
            String[] parts = route.split(" ", 2);
            JsonNode operation = document.path("paths").path(parts[1]).path(parts[0].toLowerCase(Locale.ROOT));
            if (operation.isMissingNode()) {
                missing.add(route + ": not in the document");
            } else if (!operation.hasNonNull("summary") || !operation.hasNonNull("operationId")) {
                missing.add(route + ": no summary or operationId (describe it in apidocs/operations.yaml)");
            } else if (!hasTypedSuccess(document, operation)) {
                missing.add(route + ": no 2xx answer with a schema");
            }
        }
        assertThat(missing).as("routes the document lacks or does not describe").isEmpty();
    }

    @Test
    void theOverlayDescribesOnlyRoutesThatExist() {
        Set<String> described = new TreeSet<>();
        DocumentOverlay.load().operations().keySet().forEach(described::add);
        assertThat(mappedRoutes()).containsAll(described);
    }

    @Test
    void everyReferenceResolves() {
        JsonNode document = document();
        List<String> refs = new ArrayList<>();
        collectRefs(document, refs);
        assertThat(refs).isNotEmpty();
        for (String ref : refs) {
            assertThat(ref).startsWith("#/components/");
            assertThat(document.at(ref.substring(1)).isMissingNode()).as(ref).isFalse();
        }
    }

    @Test
    void theRetryContractIsInTheHeadersAndAnswersOfEveryOperationThatTakesAKey() {
        JsonNode document = document();
        JsonNode create = document.at("/paths/~1v1~1payments/post");
        assertThat(create.get("parameters").toString()).contains("#/components/parameters/IdempotencyKey");
        assertThat(codes(create, 409)).contains("request_in_progress", "intent_has_live_attempt");
        assertThat(codes(create, 422)).containsExactly("idempotency_key_reused");
        assertThat(codes(create, 429)).containsExactly("rate_limited");
        assertThat(codes(create, 503)).contains("psp_unavailable", "database_unavailable");
        for (int status : new int[] {409, 429, 503}) {
            assertThat(create.at("/responses/" + status + "/headers/Retry-After/$ref")
                            .asString())
                    .as("" + status)
                    .endsWith("/RetryAfter");
        }
        assertThat(document.at("/components/responses/Payment/headers/Idempotent-Replayed")
                        .isMissingNode())
                .isFalse();
        assertThat(document.at("/info/description").asString())
                .contains("409 never means declined", "Retry-After", "Idempotent-Replayed");
        assertThat(document.at("/paths/~1v1~1admin~1merchants/post/security/0").has("adminToken"))
                .isTrue();
        assertThat(document.at("/paths/~1v1~1balance/get/security/0").has("apiKey"))
                .isTrue();
        assertThat(document.at("/paths/~1docs/get/security").isEmpty()).isTrue();
    }

    /**
     * Each route lists the problems it can answer, and only those: capture's 402 is capture_declined, void's is
     * void_declined; an admin route answers invalid_admin_token, never rate_limited; a literal route no 404.
     */
    @Test
    void everyRouteDeclaresItsOwnProblemStatusesAndCodes() {
        JsonNode paths = document().get("paths");
        JsonNode capture = paths.at("/~1v1~1payments~1{id}~1capture/post");
        assertThat(codes(capture, 402)).containsExactly("capture_declined");
        assertThat(codes(capture, 409))
                .contains("request_in_progress", "capture_in_progress", "nothing_to_capture")
                .doesNotContain("already_captured");
        assertThat(codes(paths.at("/~1v1~1payments~1{id}~1void/post"), 402)).containsExactly("void_declined");
        assertThat(capture.at("/responses/402/content/application~1problem+json/schema/allOf/0/$ref")
                        .asString())
                .isEqualTo("#/components/schemas/Problem");
        assertThat(capture.at("/responses/402/description").asString())
                .contains("capture_declined", ProblemCode.CAPTURE_DECLINED.meaning());

        JsonNode identities = paths.at("/~1v1~1admin~1identities/post");
        assertThat(codes(identities, 409)).containsExactly("name_taken");
        assertThat(codes(identities, 401)).containsExactlyInAnyOrder("missing_api_key", "invalid_admin_token");
        assertThat(identities.at("/responses/429").isMissingNode()).isTrue();
        assertThat(identities.at("/responses/404").isMissingNode()).isTrue();
        assertThat(codes(paths.at("/~1v1~1admin~1merchants~1{merchantId}~1psp/put"), 422))
                .containsExactly("psp_not_available");
        assertThat(codes(paths.at("/~1v1~1admin~1merchants~1{merchantId}~1psp/put"), 409))
                .containsExactly("psp_change_refused");
        JsonNode run = paths.at("/~1v1~1ops~1settlements~1runs/post");
        assertThat(codes(run, 422)).containsExactly("date_not_closed");
        assertThat(codes(run, 502)).containsExactly("settlement_file_unavailable");
        assertThat(codes(paths.at("/~1v1~1ops~1manual-review~1{id}~1resolve/post"), 409))
                .containsExactlyInAnyOrder("review_not_open", "decision_not_applicable");
        assertThat(codes(paths.at("/~1v1~1ops~1recon-breaks~1{id}~1resolve/post"), 409))
                .containsExactly("break_not_open");
        JsonNode notification = paths.at("/~1v1~1psp~1{provider}~1webhooks/post");
        assertThat(codes(notification, 401)).containsExactly("invalid_signature");
        assertThat(notification.at("/responses/401/headers/WWW-Authenticate").isMissingNode())
                .isTrue();
        assertThat(codes(paths.at("/~1v1~1balance/get"), 500)).containsExactly("internal_error");
    }

    /** The check every test's answers go through refuses a problem status, or a code, its route does not declare. */
    @Test
    void anAnswerWithAnUndeclaredProblemStatusOrCodeFailsTheTestThatGotIt() {
        ApiContract contract = ApiContract.of(baseUri());
        URI capture = baseUri().resolve("/v1/payments/pay_01a2428d5fbe7c40a628ff98bad44cc6/capture");
        String declined = problem(402, "capture_declined");

        contract.check("POST", capture, 402, "application/problem+json", declined);
        assertThatThrownBy(() ->
                        contract.check("POST", capture, 402, "application/problem+json", problem(402, "void_declined")))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("POST /v1/payments/{id}/capture answered 402 void_declined");
        assertThatThrownBy(() ->
                        contract.check("POST", capture, 418, "application/problem+json", problem(418, "bad_request")))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("a status the API document does not declare for this route");
        assertThatThrownBy(() -> contract.check(
                        "GET",
                        baseUri().resolve("/v1/balance"),
                        404,
                        "application/problem+json",
                        problem(404, "not_found")))
                .isInstanceOf(AssertionError.class);
    }

    private static String problem(int status, String code) {
        return "{\"type\":\"/problems/" + code + "\",\"title\":\"" + code.replace('_', ' ') + "\",\"status\":" + status
                + ",\"code\":\"" + code + "\"}";
    }

    /**
     * The codes a controller's source produces are all declared by some handler of that controller, so a refusal
     * no test happens to provoke is in the document all the same.
     */
    @Test
    void everyCodeAControllerProducesIsDeclaredByOneOfItsHandlers() {
        Set<Class<?>> controllers = new TreeSet<>(Comparator.comparing(Class::getName));
        mappings.getHandlerMethods().values().forEach(h -> controllers.add(h.getBeanType()));
        List<String> undeclared = new ArrayList<>();
        int checked = 0;
        for (Class<?> controller : controllers) {
            Path source = Path.of("src/main/java", controller.getName().replace('.', '/') + ".java");
            if (!Files.exists(source)) {
                continue; // springdoc's and Spring's own handlers
            }
            Set<String> declared = new TreeSet<>();
            for (var handler : mappings.getHandlerMethods().values()) {
                if (handler.getBeanType() == controller) {
                    ContractOperations.problems(controller, handler.getMethod())
                            .values()
                            .forEach(codes -> codes.forEach(code -> declared.add(code.code())));
                }
            }
            Set<String> produced = ProblemCatalogueTest.producedIn(source);
            checked += produced.size();
            produced.removeAll(declared);
            produced.forEach(code -> undeclared.add(controller.getSimpleName() + ": " + code));
        }
        assertThat(checked).isGreaterThan(40);
        assertThat(undeclared)
                .as("codes a controller answers that none of its handlers declares (@ProblemCodes)")
                .isEmpty();
    }

    private static List<String> codes(JsonNode operation, int status) {
        JsonNode codes = operation.at(
                "/responses/" + status + "/content/application~1problem+json/schema/allOf/1" + "/properties/code/enum");
        assertThat(codes.isArray())
                .as(operation.path("operationId").asString() + " " + status + " lists its codes")
                .isTrue();
        List<String> list = new ArrayList<>();
        codes.forEach(code -> list.add(code.asString()));
        return list;
    }

    @Test
    void everyEventTypeHasAWebhookWithItsPayload() {
        JsonNode webhooks = document().get("webhooks");
        Set<String> types = new TreeSet<>();
        webhooks.propertyNames().forEach(types::add);
        assertThat(types).isEqualTo(EventTypes.known());
        JsonNode captured = webhooks.at("/payment.captured/post");
        assertThat(captured.toString())
                .contains(
                        "Kopek-Signature",
                        "#/components/schemas/Event",
                        "#/components/schemas/Payment",
                        "\"const\":\"payment.captured\"");
        assertThat(webhooks.at("/refund.failed/post").toString()).contains("#/components/schemas/Refund");
    }

    /**
     * Each webhook shows an event of its own type, with its resource, as the body it describes: not the one
     * recorded payment.created for all 32. Each example holds against its webhook's body schema, strictly.
     */
    @Test
    void everyWebhookShowsAnEventOfItsType() {
        JsonNode document = document();
        ApiContract contract = ApiContract.of(baseUri());
        List<String> wrong = new ArrayList<>();
        for (String type : EventTypes.known()) {
            String media = "/webhooks/" + type + "/post/requestBody/content/application~1json";
            JsonNode example = document.at(media + "/example");
            String resource = type.substring(0, type.indexOf('.'));
            if (!example.path("type").asString().equals(type)
                    || !example.path("resource").path("type").asString().equals(resource)
                    || !example.path("resource")
                            .path("id")
                            .equals(example.path("data").path("id"))) {
                wrong.add(type + ": " + example);
                continue;
            }
            contract.mismatchesAt(media + "/schema", example).forEach(m -> wrong.add(type + ": " + m));
        }
        assertThat(wrong).isEmpty();
        assertThat(document.at("/webhooks/refund.failed/post/requestBody/content/application~1json/example/data/status")
                        .asString())
                .isEqualTo("failed");
        assertThat(document.at("/webhooks/payment.captured/post/requestBody/content/application~1json/example/data"
                                + "/status")
                        .asString())
                .isEqualTo("captured");
    }

    @Test
    void everyProblemCodeIsDocumented() {
        JsonNode codes = document().at("/components/schemas/ProblemCode/oneOf");
        Set<String> documented = new TreeSet<>();
        codes.forEach(code -> documented.add(code.get("const").asString()));
        assertThat(documented)
                .isEqualTo(new TreeSet<>(Arrays.stream(ProblemCode.values())
                        .map(ProblemCode::code)
                        .toList()));
    }

    @Test
    void theYamlDocumentTheBrowserAndItsFilesArePublic() {
        Api anonymous = new Api(baseUri(), null);
        Api.Response yaml = anonymous.get("/openapi.yaml");
        assertThat(yaml.status()).isEqualTo(200);
        assertThat(yaml.body()).startsWith("openapi: 3.1.0").contains("/v1/payments/{id}/refunds");
        Api.Response page = anonymous.get("/docs");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.header("Content-Type")).startsWith("text/html");
        assertThat(page.body()).contains("/docs/assets/swagger-ui-bundle.js", "/docs/init.js");
        assertThat(anonymous.get("/docs/init.js").body()).contains("url: \"/openapi\"");
        Api.Response bundle = anonymous.get("/docs/assets/swagger-ui-bundle.js");
        assertThat(bundle.status()).isEqualTo(200);
        assertThat(bundle.body()).contains("SwaggerUIBundle");
        assertThat(anonymous.get("/docs/assets/swagger-ui.css").header("Content-Type"))
                .startsWith("text/css");
        // The WebJar's other files are not served: its stock index.html would load the petstore from the internet.
        for (String other : List.of("index.html", "swagger-initializer.js", "swagger-ui.js", "..%2Fpom.properties")) {
            Api.Response refused = anonymous.get("/docs/assets/" + other);
            assertThat(refused.status()).as(other).isIn(400, 404);
            assertThat(refused.body()).as(other).doesNotContain("petstore");
        }
        // Nor anywhere else: Boot's default handlers would serve the whole WebJar under /webjars and /.
        String version = ApiBrowser.swaggerUiVersion();
        for (String path : List.of(
                "/webjars/swagger-ui/index.html",
                "/webjars/swagger-ui/" + version + "/index.html",
                "/webjars/swagger-ui/" + version + "/swagger-initializer.js",
                "/webjars/swagger-ui/" + version + "/swagger-ui.css",
                "/swagger-ui/index.html",
                "/swagger-ui.html",
                "/v3/api-docs",
                "/index.html",
                "/favicon.ico")) {
            Api.Response refused = anonymous.get(path);
            assertThat(refused.status()).as(path).isEqualTo(404);
            assertThat(refused.header("Content-Type")).as(path).startsWith("application/problem+json");
            assertThat(refused.body()).as(path).doesNotContain("petstore").contains("\"code\":\"not_found\"");
        }
    }

    /**
     * Every JSON request body and success answer of every operation and webhook has an example: its own, or its
     * component schema's (a list's own component, not only its items'), or, for a list of components, theirs.
     */
    @Test
    void everyJsonBodyAndSuccessAnswerHasAnExample() {
        JsonNode document = document();
        List<String> without = new ArrayList<>();
        for (String section : List.of("paths", "webhooks")) {
            for (var path : document.path(section).properties()) {
                for (var operation : path.getValue().properties()) {
                    String where = section + " " + operation.getKey().toUpperCase(Locale.ROOT) + " " + path.getKey();
                    List<JsonNode> bodies = new ArrayList<>();
                    bodies.add(operation.getValue().path("requestBody"));
                    for (var response : operation.getValue().path("responses").properties()) {
                        if (response.getKey().startsWith("2")) {
                            bodies.add(response.getValue());
                        }
                    }
                    for (JsonNode body : bodies) {
                        while (body.has("$ref")) {
                            body = document.at(body.get("$ref").asString().substring(1));
                        }
                        for (var media : body.path("content").properties()) {
                            if (media.getKey().endsWith("json") && !hasExample(document, media.getValue())) {
                                without.add(where + " " + media.getKey() + " "
                                        + media.getValue().path("schema"));
                            }
                        }
                    }
                }
            }
        }
        assertThat(without).isEmpty();
    }

    private static boolean hasExample(JsonNode document, JsonNode media) {
        if (media.has("example") || media.has("examples")) {
            return true;
        }
        JsonNode schema = media.path("schema");
        if (schema.has("items")) {
            schema = schema.get("items");
        }
        if (schema.has("allOf")) {
            schema = schema.get("allOf").get(0);
        }
        return schema.has("example")
                || schema.has("$ref")
                        && document.at(schema.get("$ref").asString().substring(1))
                                .has("example");
    }

    /**
     * Each problem response shows an example of every code it lists, answered with its own status: a route's 404
     * does not show the catalogue's one 422. Each example is the body Kopek writes for that code and holds against
     * the response's schema, strictly, as answers do.
     */
    @Test
    void everyProblemResponseShowsAnExampleOfEachOfItsCodesWithItsStatus() {
        JsonNode document = document();
        ApiContract contract = ApiContract.of(baseUri());
        JsonNode shared = document.path("components").path("examples");
        List<String> wrong = new ArrayList<>();
        int checked = 0;
        for (var path : document.path("paths").properties()) {
            for (var operation : path.getValue().properties()) {
                for (var response : operation.getValue().path("responses").properties()) {
                    int status = Integer.parseInt(response.getKey().replace("XX", "00"));
                    JsonNode media = response.getValue().path("content").path("application/problem+json");
                    if (status < 400 || media.isMissingNode()) {
                        continue;
                    }
                    String where = operation.getKey().toUpperCase(Locale.ROOT) + " " + path.getKey() + " " + status;
                    Set<String> codes = new TreeSet<>();
                    media.path("schema")
                            .path("allOf")
                            .path(1)
                            .path("properties")
                            .path("code")
                            .path("enum")
                            .forEach(code -> codes.add(code.asString()));
                    Set<String> shown = new TreeSet<>(media.path("examples").propertyNames());
                    if (codes.isEmpty() || !shown.equals(codes)) {
                        wrong.add(where + ": codes " + codes + ", examples " + shown);
                        continue;
                    }
                    String pointer =
                            "/paths/" + path.getKey().replace("~", "~0").replace("/", "~1") + "/"
                                    + operation.getKey() + "/responses/" + response.getKey()
                                    + "/content/application~1problem+json/schema";
                    for (String code : codes) {
                        String ref =
                                media.path("examples").path(code).path("$ref").asString();
                        JsonNode value = document.at(ref.substring(1)).path("value");
                        if (value.path("status").asInt() != status
                                || !value.path("code").asString().equals(code)
                                || !value.path("type").asString().equals("/problems/" + code)) {
                            wrong.add(where + " " + code + ": example " + value);
                        }
                        contract.mismatchesAt(pointer, value).forEach(m -> wrong.add(where + " " + code + ": " + m));
                        checked++;
                    }
                }
            }
        }
        assertThat(wrong).isEmpty();
        assertThat(checked).isGreaterThan(300);
        // One shared example per code and status: every status of every code in the catalogue.
        assertThat(shared.size())
                .isEqualTo(Arrays.stream(ProblemCode.values())
                        .mapToInt(c -> c.statuses().size())
                        .sum());
        assertThat(document.at("/paths/~1v1~1payments~1{id}/get/responses/404/content/application~1problem+json"
                                + "/examples/not_found/$ref")
                        .asString())
                .isEqualTo("#/components/examples/not_found");
        assertThat(shared.path("body_too_large_413")
                        .path("value")
                        .path("status")
                        .asInt())
                .isEqualTo(413);
    }

    @Test
    void aProblemsTypeIsAPageSayingWhatItMeansAndWhatToDo() {
        Api merchant = newMerchant();
        Api.Response refused = merchant.post("/v1/payments", null, Api.payment(newReference(), 100, "EUR", "pm_ok"));
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.text("type")).isEqualTo("/problems/missing_idempotency_key");

        Api anonymous = new Api(baseUri(), null);
        Api.Response page = anonymous.get(refused.text("type"));
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.header("Content-Type")).startsWith("text/html");
        assertThat(page.body()).contains("missing_idempotency_key", "What it means", "What to do", "fix request");

        Api.Response json = anonymous.send(anonymous
                .request("/problems/request_in_progress")
                .header("Accept", "application/json")
                .GET()
                .build());
        assertThat(json.text("action")).isEqualTo("retry_same_key");
        assertThat(json.json().get("statuses").get(0).asInt()).isEqualTo(409);

        Api.Response unknown = anonymous.get("/problems/no_such_code");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.header("Content-Type")).startsWith("application/problem+json");
        assertThat(unknown.text("code")).isEqualTo("not_found");
        assertThat(anonymous.get("/problems").body()).contains("/problems/rate_limited");
    }

    private static boolean hasTypedSuccess(JsonNode document, JsonNode operation) {
        for (var entry : operation.path("responses").properties()) {
            if (!entry.getKey().startsWith("2")) {
                continue;
            }
            JsonNode response = entry.getValue();
            if (response.has("$ref")) {
                response = document.at(response.get("$ref").asString().substring(1));
            }
            for (var media : response.path("content").properties()) {
                JsonNode schema = media.getValue().path("schema");
                // A page or a script is text by nature; a JSON answer typed as a bare string is springdoc's guess.
                boolean plainString = "string".equals(schema.path("type").asString(""))
                        && !media.getKey().startsWith("text/");
                if (!schema.isMissingNode() && !plainString) {
                    return true;
                }
            }
        }
        return false;
    }

    private static void collectRefs(JsonNode node, List<String> refs) {
        if (node.isObject()) {
            for (var entry : node.properties()) {
                if (entry.getKey().equals("$ref") && entry.getValue().isString()) {
                    refs.add(entry.getValue().asString());
                } else {
                    collectRefs(entry.getValue(), refs);
                }
            }
        } else if (node.isArray()) {
            node.forEach(child -> collectRefs(child, refs));
        }
    }
}

package dev.kopek.apidocs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.outbox.EventTypes;
import dev.kopek.platform.ProblemCode;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import java.util.ArrayList;
import java.util.Arrays;
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
        assertThat(create.at("/responses/409/$ref").asString()).endsWith("/InProgressOrConflict");
        assertThat(create.at("/responses/422/$ref").asString()).endsWith("/KeyReused");
        assertThat(create.at("/responses/429/$ref").asString()).endsWith("/RateLimited");
        assertThat(document.at("/components/responses/InProgressOrConflict/headers/Retry-After").isMissingNode())
                .isFalse();
        assertThat(document.at("/components/responses/RateLimited/headers/Retry-After").isMissingNode()).isFalse();
        assertThat(document.at("/components/responses/Payment/headers/Idempotent-Replayed").isMissingNode())
                .isFalse();
        assertThat(document.at("/info/description").asString()).contains("409 never means declined",
                "Retry-After", "Idempotent-Replayed");
        assertThat(document.at("/paths/~1v1~1admin~1merchants/post/security/0").has("adminToken")).isTrue();
        assertThat(document.at("/paths/~1v1~1balance/get/security/0").has("apiKey")).isTrue();
        assertThat(document.at("/paths/~1docs/get/security").isEmpty()).isTrue();
    }

    @Test
    void everyEventTypeHasAWebhookWithItsPayload() {
        JsonNode webhooks = document().get("webhooks");
        Set<String> types = new TreeSet<>();
        webhooks.propertyNames().forEach(types::add);
        assertThat(types).isEqualTo(EventTypes.known());
        JsonNode captured = webhooks.at("/payment.captured/post");
        assertThat(captured.toString()).contains("Kopek-Signature", "#/components/schemas/Event",
                "#/components/schemas/Payment", "\"const\":\"payment.captured\"");
        assertThat(webhooks.at("/refund.failed/post").toString()).contains("#/components/schemas/Refund");
    }

    @Test
    void everyProblemCodeIsDocumented() {
        JsonNode codes = document().at("/components/schemas/ProblemCode/oneOf");
        Set<String> documented = new TreeSet<>();
        codes.forEach(code -> documented.add(code.get("const").asString()));
        assertThat(documented).isEqualTo(new TreeSet<>(Arrays.stream(ProblemCode.values()).map(ProblemCode::code)
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
        assertThat(anonymous.get("/docs/assets/swagger-ui.css").header("Content-Type")).startsWith("text/css");
        // The WebJar's other files are not served: its stock index.html would load the petstore from the internet.
        for (String other : List.of("index.html", "swagger-initializer.js", "swagger-ui.js", "..%2Fpom.properties")) {
            Api.Response refused = anonymous.get("/docs/assets/" + other);
            assertThat(refused.status()).as(other).isIn(400, 404);
            assertThat(refused.body()).as(other).doesNotContain("petstore");
        }
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

        Api.Response json = anonymous.send(anonymous.request("/problems/request_in_progress")
                .header("Accept", "application/json").GET().build());
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

package dev.kopek.access.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.platform.Audience;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.TableCounts;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * Every admin and ops route, taken from the handler mappings (not a hand list), tried by a merchant and by a
 * stranger under every spelling of its path that some layer might read differently, and with every method. Each
 * answer must be a refusal (400, 401, 403 or 404) as problem+json, and no table may gain or lose a row.
 */
class AdminRouteSpellingsTest extends IntegrationTest {

    private static final Set<Integer> REFUSALS = Set.of(400, 401, 403, 404);
    private static final List<String> METHODS =
            List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE");

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    record Route(String method, String path) {}

    @Test
    void noAdminOrOpsRouteAnswersAMerchantOrAStrangerUnderAnySpelling() {
        Api merchant = newMerchant();
        String merchantKey = bearerOf(merchant);
        Fixtures fixtures = fixtures();
        List<Route> routes = adminRoutes(fixtures);
        assertThat(routes).hasSizeGreaterThanOrEqualTo(13);
        SoftAssertions softly = new SoftAssertions();
        int sent = 0;
        for (Route route : routes) {
            for (String bearer : new String[] {merchantKey, null}) {
                Map<String, Long> before = rowCounts();
                for (RawRequest request : requests(route, bearer)) {
                    RawRequest.Answer answer = request.send(port);
                    sent++;
                    String what = request.method() + " " + request.target()
                            + (bearer == null ? " (no key)" : " (merchant key)") + " -> " + answer;
                    softly.assertThat(answer.status()).as(what).isIn(REFUSALS);
                    softly.assertThat(answer.header("content-type")).as(what).startsWith("application/problem+json");
                    if (!request.method().equals("HEAD")) {
                        softly.assertThat(answer.body()).as(what).contains("\"code\"");
                    }
                }
                softly.assertThat(rowCounts())
                        .as("row counts after " + route + " with " + (bearer == null ? "no key" : "a merchant key"))
                        .isEqualTo(before);
            }
        }
        softly.assertAll();
        assertThat(sent).isGreaterThan(1_500);
    }

    /** The route's own method and every other under each spelling of its path, and the absolute form. */
    private List<RawRequest> requests(Route route, String bearer) {
        List<RawRequest> requests = new ArrayList<>();
        String body = body(route.path());
        for (String target : spellings(route.path())) {
            List<String> methods = target.equals(route.path()) ? METHODS : List.of(route.method(), "HEAD", "OPTIONS");
            for (String method : methods) {
                boolean withBody = method.equals("POST") || method.equals("PUT") || method.equals("PATCH");
                requests.add(new RawRequest(method, target, bearer, withBody ? body : null));
            }
        }
        String origin = "http://127.0.0.1:" + port;
        for (String target :
                List.of(route.path(), semicolon(route.path(), 1, ";x"), encodeFirstLetter(route.path(), 2))) {
            requests.add(new RawRequest(route.method(), origin + target, bearer, body));
        }
        return requests;
    }

    /** Each spelling some layer of the stack might read as the admin path while another reads it as something else. */
    static List<String> spellings(String path) {
        List<String> spellings = new ArrayList<>();
        spellings.add(path);
        String[] segments = path.substring(1).split("/");
        for (int i = 0; i < segments.length; i++) {
            spellings.add(semicolon(path, i, ";x"));
            spellings.add(encodeFirstLetter(path, i));
        }
        spellings.add(semicolon(path, 0, ";jsessionid=0123456789ABCDEF"));
        spellings.add(semicolon(path, segments.length - 1, ";jsessionid=0123456789ABCDEF"));
        spellings.add("/%76%31/" + path.substring(4));
        spellings.add(path.replaceFirst("/v1/", "/v1%2F"));
        spellings.add(path.replaceFirst("/v1/", "/v1%2f"));
        spellings.add("/" + path);
        spellings.add(path.replaceFirst("/v1/", "/v1//"));
        spellings.add(path + "/");
        spellings.add("/./" + path.substring(1));
        spellings.add(path.replaceFirst("/v1/", "/v1/./"));
        spellings.add(path.replaceFirst("/v1/", "/v1/x/../"));
        spellings.add("/x/.." + path);
        spellings.add(path.replaceFirst("/v1/", "/v1/%2e/"));
        spellings.add(path.replaceFirst("/v1/", "/v1/%2E%2E/v1/"));
        spellings.add(path.replaceFirst("/v1/", "/v1/%5c"));
        spellings.add(path.toUpperCase(Locale.ROOT));
        spellings.add("/V1" + path.substring(3));
        return spellings;
    }

    private static String semicolon(String path, int segment, String parameter) {
        String[] parts = path.substring(1).split("/");
        parts[segment] = parts[segment] + parameter;
        return "/" + String.join("/", parts);
    }

    private static String encodeFirstLetter(String path, int segment) {
        String[] parts = path.substring(1).split("/");
        String part = parts[segment];
        parts[segment] = String.format("%%%02X", (int) part.charAt(0)) + part.substring(1);
        return "/" + String.join("/", parts);
    }

    record Fixtures(String merchantId, String keyId, String ledgerTransaction) {}

    /** Real ids, so a request that got through would succeed (201/200) rather than hide behind a 404. */
    private Fixtures fixtures() {
        Api owner = newMerchant();
        Api.Response payment = owner.pay(Api.newKey(), Api.payment(newReference(), 10_000, "RUB", "pm_ok"));
        String transaction = owner.get("/v1/ledger/transactions?payment_id=" + payment.text("id"))
                .json()
                .get("data")
                .get(0)
                .get("id")
                .asString();
        var created = merchants.create("Spelling target");
        var key = merchants.issueKey(created.id());
        return new Fixtures(created.id().toString(), dev.kopek.money.PrefixedId.format("key", key.id()), transaction);
    }

    private List<Route> adminRoutes(Fixtures fixtures) {
        List<Route> routes = new ArrayList<>();
        mappings.getHandlerMethods().forEach((info, handler) -> {
            if (!Routes.declaredBy(handler).equals(List.of(Audience.Kind.ADMIN))) {
                return;
            }
            for (String pattern : info.getPatternValues()) {
                for (var method : info.getMethodsCondition().getMethods()) {
                    routes.add(new Route(
                            method.name(),
                            pattern.replace("{merchantId}", fixtures.merchantId())
                                    .replace("{keyId}", fixtures.keyId())
                                    .replace("/transactions/{id}", "/transactions/" + fixtures.ledgerTransaction())
                                    .replace("{id}", "mrv_0190f3a1b2c3d4e5f60718293a4b5c6d")));
                }
            }
        });
        routes.sort(java.util.Comparator.comparing(Route::path).thenComparing(Route::method));
        return routes;
    }

    /** A body the route would accept from an admin. */
    private static String body(String path) {
        if (path.endsWith("/merchants")) {
            return "{\"name\":\"evil\"}";
        }
        if (path.endsWith("/fees")) {
            return "{\"bps\":9999,\"fixed_minor\":0,\"currency\":\"RUB\"}";
        }
        if (path.endsWith("/reversal")) {
            return "{\"reason\":\"evil\"}";
        }
        if (path.endsWith("/resolve")) {
            return "{\"decision\":\"failed\"}";
        }
        if (path.endsWith("/runs")) {
            return "{\"date\":\"2026-01-01\"}";
        }
        return "{}";
    }

    private Map<String, Long> rowCounts() {
        return TableCounts.of(jdbc);
    }

    private static String bearerOf(Api api) {
        return api.request("/")
                .build()
                .headers()
                .firstValue("Authorization")
                .orElseThrow()
                .substring(7);
    }
}

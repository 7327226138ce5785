package dev.kopek.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.simulator.WebhookSignature;
import dev.kopek.support.Api;
import dev.kopek.support.ConsoleBrowser;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.RawHttp;
import dev.kopek.support.TableCounts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A generated sweep of hostile requests over every route Spring maps (controllers and actuator), with merchant,
 * admin and no credentials: control characters and invalid UTF-8 in every field, overflowing and fractional
 * numbers, wrong types, duplicate keys, deep nesting, empty and oversized bodies, wrong content types, hostile
 * ids and query strings, every method on every path — as well-formed HTTP and as raw bytes on a socket.
 *
 * <p>For every answer: nothing at or above 500 (501 for an unsupported method or transfer coding is fine);
 * every refusal is application/problem+json with a {@code code}; and a refused request changes no table's row
 * count (402 and 409 excepted: those are business outcomes stored as the key's final answer, by design). The
 * operator console's routes ({@code /console/**}) are pages for people: swept with its session (cookie and CSRF
 * token) as well as without, a refusal there may be an HTML page, but never a 5xx, a stack trace, or a token or
 * session id echoed back. The seed is random per run and printed; {@code -Dkopek.hostile.seed=N} replays a run.
 */
class HostileInputTest extends IntegrationTest {

    private static final int MIN_REQUESTS = 1_000;
    private static final String PLACEHOLDER = "\"@@hostile@@\"";
    /** Stands for "the console's session" where a bearer token would go. */
    private static final String CONSOLE_SESSION = "console-session";

    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    @Autowired
    List<RequestMappingInfoHandlerMapping> mappings;

    private Random random;
    private long seed;
    private final List<String> failures = new ArrayList<>();
    private final Map<String, Integer> statuses = new TreeMap<>();
    private int requests;
    private int dropped;
    private Map<String, Long> counts;
    private Fixture fixture;
    private String consoleCookie;
    private String consoleCsrf;

    /** Real objects, so that hostile requests reach deep into the handlers instead of stopping at "not found". */
    private record Fixture(
            String merchantKey,
            String victimMerchant,
            String victimKey,
            String captured,
            String authorized,
            String refund,
            String endpoint,
            String ledgerTransaction) {}

    @Test
    void noHostileRequestGetsA500OrAnUntypedRefusalOrChangesAnything() {
        seed = Long.getLong("kopek.hostile.seed", new Random().nextLong());
        random = new Random(seed);
        System.out.println("HostileInputTest seed " + seed + " (replay with -Dkopek.hostile.seed=" + seed + ")");
        fixture = fixture();
        Routes routes = Routes.from(mappings);
        assertThat(routes.all())
                .as("routes discovered from the handler mappings")
                .hasSizeGreaterThan(25);
        counts = TableCounts.of(jdbc);

        for (Routes.Route route : routes.all()) {
            consoleLogin(route);
            queries(route);
            if (route.hasVariables()) {
                ids(route);
            }
            if (route.takesBody()) {
                fields(route);
                bodies(route);
                contentTypes(route);
                headers(route);
            }
            frames(route);
        }
        for (Routes.Route route : routes.all()) {
            consoleLogin(route);
            methods(route);
        }

        System.out.println("HostileInputTest seed " + seed + ": " + requests + " requests over "
                + routes.all().size() + " routes, " + dropped + " connections closed without an answer, statuses "
                + statuses);
        assertThat(failures)
                .as("seed " + seed + " (replay with -Dkopek.hostile.seed=" + seed + "), " + failures.size() + " of "
                        + requests + " requests failed")
                .isEmpty();
        assertThat(requests).isGreaterThanOrEqualTo(MIN_REQUESTS);
    }

    private Fixture fixture() {
        var merchant = merchants.create("hostile " + UUID.randomUUID());
        String key = merchants.issueKey(merchant.id()).secret();
        var victim = merchants.create("victim " + UUID.randomUUID());
        UUID victimKey = merchants.issueKey(victim.id()).id();
        Api api = new Api(baseUri(), key);
        String captured = api.pay(Api.newKey(), Api.payment(newReference(), 1_000_000, "EUR", "pm_ok"))
                .text("id");
        String authorized = api.pay(
                        Api.newKey(),
                        "{\"reference\":\"" + newReference() + "\",\"amount\":1000000,"
                                + "\"currency\":\"EUR\",\"payment_method\":\"pm_ok\",\"capture_method\":\"manual\"}")
                .text("id");
        String refund = api.post("/v1/payments/" + captured + "/refunds", Api.newKey(), "{\"amount\":100}")
                .text("id");
        String endpoint = api.post(
                        "/v1/webhook-endpoints",
                        Api.newKey(),
                        "{\"url\":\"https://example.com/hostile\",\"event_types\":[\"*\"]}")
                .text("id");
        JsonNode ledger =
                api.get("/v1/ledger/transactions?payment_id=" + captured).json().get("data");
        String ltx =
                ledger != null && !ledger.isEmpty() ? ledger.get(0).get("id").asString() : "ltx_" + "0".repeat(32);
        return new Fixture(
                key,
                victim.id().toString(),
                dev.kopek.money.PrefixedId.format("key", victimKey),
                captured,
                authorized,
                refund,
                endpoint == null ? "we_" + "0".repeat(32) : endpoint,
                ltx);
    }

    /** A fresh console session for each console route (a swept POST /console/logout ends the last one). */
    private void consoleLogin(Routes.Route route) {
        if (!route.isConsole()) {
            return;
        }
        try {
            ConsoleBrowser browser = ConsoleBrowser.loggedIn(baseUri(), ADMIN_TOKEN);
            consoleCookie = browser.sessionCookie();
            consoleCsrf = browser.csrf();
            counts = TableCounts.of(jdbc); // the log-in's own audit event is not a request under test
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    // ---- the request families -------------------------------------------------------------------------------

    private void queries(Routes.Route route) {
        String path = realPath(route);
        RequestMethod method = route.methods().contains(RequestMethod.GET) ? RequestMethod.GET : first(route);
        for (int i = 0; i < 4; i++) {
            String query = pick(Mutations.QUERIES);
            send(
                    route,
                    method.name(),
                    path + "?" + query,
                    seedBody(route),
                    "application/json",
                    credential(route),
                    Map.of(),
                    "query " + query);
        }
    }

    private void ids(Routes.Route route) {
        for (int i = 0; i < 5; i++) {
            String[] chosen = new String[1];
            String path = route.path((name, segment) -> {
                String id = pick(Mutations.ids(prefix(segment)));
                chosen[0] = id;
                return id;
            });
            send(
                    route,
                    first(route).name(),
                    path,
                    seedBody(route),
                    "application/json",
                    credential(route),
                    Map.of(),
                    "id " + abbreviate(chosen[0]));
        }
    }

    private void fields(Routes.Route route) {
        ObjectNode seed = (ObjectNode) Api.JSON.readTree(seedBody(route));
        List<String[]> slots = slots(seed);
        for (String[] slot : slots) {
            for (int i = 0; i < 5; i++) {
                Mutations.Piece value = pick(Mutations.VALUES);
                byte[] body = withPiece(seed, slot, value.bytes());
                send(
                        route,
                        bodyMethod(route).name(),
                        realPath(route),
                        body,
                        "application/json",
                        credential(route),
                        Map.of(),
                        String.join(".", slot) + " = " + value.name());
            }
        }
    }

    private void bodies(Routes.Route route) {
        for (Mutations.Piece body : Mutations.bodies(seedBody(route))) {
            if (random.nextInt(3) > 0) {
                send(
                        route,
                        bodyMethod(route).name(),
                        realPath(route),
                        body.bytes(),
                        "application/json",
                        credential(route),
                        Map.of(),
                        "body " + body.name());
            }
        }
    }

    private void contentTypes(Routes.Route route) {
        for (int i = 0; i < 4; i++) {
            String type = pick(Mutations.CONTENT_TYPES);
            send(
                    route,
                    bodyMethod(route).name(),
                    realPath(route),
                    seedBody(route).getBytes(StandardCharsets.UTF_8),
                    type,
                    credential(route),
                    Map.of(),
                    "content type '" + type + "'");
        }
    }

    private void headers(Routes.Route route) {
        List<Map<String, String>> variants = List.of(
                Map.of("Idempotency-Key", ""),
                Map.of("Idempotency-Key", "k".repeat(256)),
                Map.of("Idempotency-Key", " "),
                Map.of("Idempotency-Key", "a\tb"),
                Map.of("Accept", "application/xml"),
                Map.of("Accept", "text/html"),
                Map.of("Accept", "garbage/"),
                Map.of("Accept", "*/*;q=x"),
                Map.of("Accept-Charset", "utf-16"),
                Map.of("Accept-Encoding", "gzip;q=abc"),
                Map.of("X-Request-Id", "a\tb"),
                Map.of("X-Request-Id", "r".repeat(4000)),
                Map.of("Authorization", "Bearer " + "t".repeat(600)),
                Map.of("Authorization", "Basic Zm9vOmJhcg=="),
                Map.of("Authorization", "Bearer"),
                Map.of("Origin", "https://evil.example"));
        for (int i = 0; i < 4; i++) {
            Map<String, String> extra = pick(variants);
            send(
                    route,
                    bodyMethod(route).name(),
                    realPath(route),
                    seedBody(route).getBytes(StandardCharsets.UTF_8),
                    "application/json",
                    credential(route),
                    extra,
                    "headers " + extra.keySet());
        }
    }

    private void frames(Routes.Route route) {
        for (int i = 0; i < 3; i++) {
            String frame = pick(Mutations.FRAMES);
            String credential = credential(route);
            String auth = credential == null
                    ? ""
                    : CONSOLE_SESSION.equals(credential)
                            ? "Cookie: " + consoleCookie + "\r\n"
                            : "Authorization: Bearer " + credential + "\r\n";
            String path = CONSOLE_SESSION.equals(credential) ? withCsrf(realPath(route)) : realPath(route);
            String request = frame.replace("%s", path).replace("%a", auth);
            Map<String, Long> before = counts;
            requests++;
            RawHttp.Answer answer = RawHttp.send(port, request);
            judge(
                    route,
                    "raw " + abbreviate(frame.split("\r?\n")[0]) + " on " + route.pattern(),
                    answer.status(),
                    answer.contentType(),
                    answer.body(),
                    true,
                    false,
                    before);
        }
    }

    private void methods(Routes.Route route) {
        for (String method : List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "FOO")) {
            send(
                    route,
                    method,
                    realPath(route),
                    route.takesBody() ? seedBody(route) : "",
                    "application/json",
                    credential(route),
                    Map.of(),
                    "method " + method);
        }
    }

    // ---- sending and judging ---------------------------------------------------------------------------------

    private void send(
            Routes.Route route,
            String method,
            String path,
            String body,
            String contentType,
            String bearer,
            Map<String, String> headers,
            String what) {
        send(route, method, path, body.getBytes(StandardCharsets.UTF_8), contentType, bearer, headers, what);
    }

    private void send(
            Routes.Route route,
            String method,
            String path,
            byte[] body,
            String contentType,
            String bearer,
            Map<String, String> headers,
            String what) {
        byte[] sent = body;
        Map<String, String> all = new LinkedHashMap<>();
        if (!contentType.isEmpty()) {
            all.put("Content-Type", contentType);
        }
        all.put("Idempotency-Key", "hostile-" + random.nextLong());
        if (CONSOLE_SESSION.equals(bearer)) {
            all.put("Cookie", consoleCookie);
            path = withCsrf(path);
        } else if (bearer != null) {
            all.put("Authorization", "Bearer " + bearer);
        }
        if (route.pattern().startsWith("/v1/psp/")) {
            all.put(
                    WebhookSignature.HEADER,
                    WebhookSignature.header(
                            "whsec_simulator",
                            clock.instant().getEpochSecond(),
                            new String(sent, StandardCharsets.UTF_8)));
        }
        all.putAll(headers);
        String label = method + " " + abbreviate(path) + " [" + what + ", "
                + (bearer == null
                        ? "anonymous"
                        : bearer.equals(ADMIN_TOKEN)
                                ? "admin"
                                : bearer.equals(CONSOLE_SESSION) ? "console" : "merchant")
                + "]";
        Map<String, Long> before = counts;
        requests++;
        HttpRequest request;
        try {
            HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(30))
                    .method(
                            method,
                            sent.length == 0 && (method.equals("GET") || method.equals("HEAD"))
                                    ? HttpRequest.BodyPublishers.noBody()
                                    : HttpRequest.BodyPublishers.ofByteArray(sent));
            all.forEach(builder::header);
            request = builder.build();
        } catch (IllegalArgumentException e) {
            // The JDK's client refuses to send this; the raw socket sends it instead.
            String head = method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: "
                    + sent.length + "\r\n";
            StringBuilder lines = new StringBuilder(head);
            all.forEach((name, value) ->
                    lines.append(name).append(": ").append(value).append("\r\n"));
            byte[] prefix = lines.append("\r\n").toString().getBytes(StandardCharsets.UTF_8);
            byte[] raw = new byte[prefix.length + sent.length];
            System.arraycopy(prefix, 0, raw, 0, prefix.length);
            System.arraycopy(sent, 0, raw, prefix.length, sent.length);
            RawHttp.Answer answer = RawHttp.send(port, raw);
            judge(
                    route,
                    label + " (raw)",
                    answer.status(),
                    answer.contentType(),
                    answer.body(),
                    sent.length > 16_000,
                    method.equals("HEAD"),
                    before);
            return;
        }
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            judge(
                    route,
                    label,
                    response.statusCode(),
                    response.headers().firstValue("Content-Type").orElse(""),
                    response.body(),
                    false,
                    method.equals("HEAD"),
                    before);
        } catch (IOException e) {
            judge(
                    route,
                    label + " (" + e.getClass().getSimpleName() + ")",
                    0,
                    "",
                    "",
                    sent.length > 16_000,
                    false,
                    before);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void judge(
            Routes.Route route,
            String label,
            int status,
            String contentType,
            String body,
            boolean mayDrop,
            boolean head,
            Map<String, Long> before) {
        statuses.merge(status == 0 ? "dropped" : Integer.toString(status), 1, Integer::sum);
        counts = TableCounts.of(jdbc);
        if (status == 0) {
            dropped++;
            if (!mayDrop) {
                failures.add(label + ": connection closed without an answer");
            }
            return;
        }
        if (status >= 500 && status != 501) {
            failures.add(label + ": " + status + " " + abbreviate(body));
        }
        if (route.isConsole()) {
            judgePage(label, status, contentType, body);
        }
        if (status >= 400) {
            if (route.isConsole() && contentType.startsWith("text/html")) {
                // A page for a person (judged above); a refusal made before the console is problem+json below.
                if (status != 402 && status != 409 && !counts.equals(before)) {
                    failures.add(label + ": " + status + " but rows changed " + diff(before, counts));
                }
                return;
            }
            if (!contentType.startsWith("application/problem+json")) {
                failures.add(label + ": " + status + " as '" + contentType + "' " + abbreviate(body));
            } else if (!head && code(body) == null) {
                failures.add(label + ": " + status + " problem without a code " + abbreviate(body));
            }
            if (status != 402 && status != 409 && !counts.equals(before)) {
                failures.add(label + ": " + status + " but rows changed " + diff(before, counts));
            }
        }
    }

    /** A console answer: a page never shows a stack trace, an exception's name, a token or the session's id. */
    private void judgePage(String label, int status, String contentType, String body) {
        String session = consoleCookie == null ? null : consoleCookie.substring(consoleCookie.indexOf('=') + 1);
        for (String secret : new String[] {ADMIN_TOKEN, fixture.merchantKey(), session}) {
            if (secret != null && body.contains(secret)) {
                failures.add(label + ": " + status + " echoes a token or session id");
            }
        }
        if (body.contains("Exception") || body.contains("\tat ") || body.contains("at dev.kopek.")) {
            failures.add(label + ": " + status + " shows a stack trace " + abbreviate(body));
        }
        if (status >= 400
                && !contentType.startsWith("text/html")
                && !contentType.startsWith("application/problem+json")) {
            failures.add(label + ": " + status + " as '" + contentType + "' " + abbreviate(body));
        }
    }

    private String withCsrf(String path) {
        return path + (path.contains("?") ? "&" : "?") + "_csrf=" + consoleCsrf;
    }

    // ---- helpers ---------------------------------------------------------------------------------------------

    private String seedBody(Routes.Route route) {
        String p = route.pattern();
        if (p.equals("/v1/payments")) {
            return "{\"reference\":\"" + newReference() + "\",\"amount\":100,\"currency\":\"EUR\",\"payment_method\":"
                    + "\"pm_ok\",\"capture_method\":\"manual\",\"description\":\"d\",\"metadata\":{\"k\":\"v\"}}";
        }
        if (p.endsWith("/capture")) {
            return "{\"amount\":1,\"final\":false}";
        }
        if (p.endsWith("/refunds")) {
            return "{\"amount\":1,\"reason\":\"r\"}";
        }
        if (p.equals("/v1/webhook-endpoints")) {
            return "{\"url\":\"https://example.com/h\",\"event_types\":[\"payment.captured\"]}";
        }
        if (p.startsWith("/v1/psp/")) {
            return "{\"id\":\"evt_" + UUID.randomUUID() + "\",\"type\":\"charge.succeeded\",\"created\":"
                    + clock.instant().getEpochSecond() + ",\"data\":{\"id\":\"ch_h\",\"object\":\"charge\","
                    + "\"status\":\"succeeded\",\"amount\":100,\"currency\":\"EUR\",\"idempotency_key\":\"kpk_h\","
                    + "\"reason\":\"r\"}}";
        }
        if (p.equals("/v1/admin/merchants")) {
            return "{\"name\":\"n\"}";
        }
        if (p.endsWith("/fees")) {
            return "{\"bps\":10,\"fixed_minor\":0,\"currency\":\"EUR\"}";
        }
        if (p.endsWith("/reversal")) {
            return "{\"reason\":\"r\"}";
        }
        if (p.endsWith("/resolve")) {
            return "{\"decision\":\"failed\",\"resolved_by\":\"ann\",\"note\":\"n\"}";
        }
        if (p.endsWith("/rate-limits")) {
            return "{\"writes\":{\"per_second\":1000,\"burst\":2000},\"reads\":{\"per_second\":1000,\"burst\":2000}}";
        }
        if (p.endsWith("/settlements/runs")) {
            return "{\"date\":\"2026-01-01\"}";
        }
        // Routes whose handlers read no body, or routes added later: the generic fields still get mutated.
        return "{\"name\":\"n\",\"reason\":\"r\",\"amount\":1}";
    }

    private String realPath(Routes.Route route) {
        return route.path((name, segment) -> switch (segment) {
            case "payments" ->
                route.pattern().endsWith("/capture") || route.pattern().endsWith("/void")
                        ? fixture.authorized()
                        : fixture.captured();
            case "refunds" -> fixture.refund();
            case "webhook-endpoints" -> fixture.endpoint();
            case "transactions" -> fixture.ledgerTransaction();
            case "merchants" -> fixture.victimMerchant();
            case "keys" -> fixture.victimKey();
            case "psp" -> "simulator";
            default -> prefix(segment) + "_" + "0".repeat(32);
        });
    }

    private static String prefix(String segment) {
        return switch (segment) {
            case "payments" -> "pay";
            case "refunds" -> "re";
            case "webhook-endpoints" -> "we";
            case "deliveries" -> "whd";
            case "transactions" -> "ltx";
            case "manual-review" -> "mrv";
            case "merchants" -> "mer";
            case "keys" -> "key";
            default -> "x";
        };
    }

    /** Mostly the credential the route is meant for, sometimes another one, sometimes none or a wrong one. */
    private String credential(Routes.Route route) {
        int roll = random.nextInt(10);
        if (route.isConsole() && roll < 6) {
            return CONSOLE_SESSION;
        }
        if (roll < 6) {
            return route.pattern().startsWith("/v1/psp/")
                    ? null
                    : route.isAdmin() ? ADMIN_TOKEN : fixture.merchantKey();
        }
        return switch (roll) {
            case 6 -> fixture.merchantKey();
            case 7 -> ADMIN_TOKEN;
            case 8 -> null;
            default -> "sk_test_" + Long.toHexString(random.nextLong()) + "0123456789";
        };
    }

    private static RequestMethod first(Routes.Route route) {
        return route.methods().iterator().next();
    }

    private static RequestMethod bodyMethod(Routes.Route route) {
        for (RequestMethod method : List.of(RequestMethod.POST, RequestMethod.PUT, RequestMethod.PATCH)) {
            if (route.methods().contains(method)) {
                return method;
            }
        }
        return first(route);
    }

    /** Where a value can be replaced: each top-level field, and each name and value one level down. */
    private static List<String[]> slots(ObjectNode seed) {
        List<String[]> slots = new ArrayList<>();
        for (String name : seed.propertyNames()) {
            slots.add(new String[] {name});
            if (seed.get(name).isObject()) {
                for (String child : seed.get(name).propertyNames()) {
                    slots.add(new String[] {name, child});
                    slots.add(new String[] {name, child, "<name>"});
                }
            }
        }
        return slots;
    }

    private static byte[] withPiece(ObjectNode seed, String[] slot, byte[] piece) {
        ObjectNode copy = seed.deepCopy();
        if (slot.length == 1) {
            copy.put(slot[0], "@@hostile@@");
        } else if (slot.length == 2) {
            ((ObjectNode) copy.get(slot[0])).put(slot[1], "@@hostile@@");
        } else {
            ObjectNode parent = (ObjectNode) copy.get(slot[0]);
            JsonNode value = parent.remove(slot[1]);
            parent.set("@@hostile@@", value);
        }
        String text = Api.JSON.writeValueAsString(copy);
        int at = text.indexOf(PLACEHOLDER);
        byte[] before = text.substring(0, at).getBytes(StandardCharsets.UTF_8);
        byte[] after = text.substring(at + PLACEHOLDER.length()).getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[before.length + piece.length + after.length];
        System.arraycopy(before, 0, out, 0, before.length);
        System.arraycopy(piece, 0, out, before.length, piece.length);
        System.arraycopy(after, 0, out, before.length + piece.length, after.length);
        return out;
    }

    private <T> T pick(List<T> list) {
        return list.get(random.nextInt(list.size()));
    }

    private static String code(String body) {
        try {
            JsonNode code = Api.JSON.readTree(body).get("code");
            return code == null || !code.isString() || code.stringValue().isBlank() ? null : code.stringValue();
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static String abbreviate(String text) {
        String flat = text.replaceAll("[\\r\\n]+", " ");
        return flat.length() > 160 ? flat.substring(0, 160) + "…" : flat;
    }

    private static String diff(Map<String, Long> before, Map<String, Long> after) {
        Map<String, String> changed = new TreeMap<>();
        after.forEach((table, n) -> {
            if (!n.equals(before.get(table))) {
                changed.put(table, before.get(table) + "→" + n);
            }
        });
        return changed.toString();
    }
}

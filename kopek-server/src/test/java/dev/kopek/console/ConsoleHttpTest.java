package dev.kopek.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.ledger.DriftChecker;
import dev.kopek.ledger.DriftReport;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The console over plain HTTP, as a browser with JavaScript off sees it: login and its cookie, the CSRF check on
 * every action, refusals of bad input as 400 pages (never a 500), and money with the currency's exponent.
 */
class ConsoleHttpTest extends IntegrationTest {

    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([0-9a-f]{64})\"");

    private final HttpClient http =
            HttpClient.newBuilder().cookieHandler(new CookieManager()).build();

    @Autowired
    private DriftChecker driftChecker;

    @Test
    void pagesNeedALoginAndTheSessionCookieIsHttpOnlyAndStrict() throws Exception {
        HttpResponse<String> anonymous = get("/console/attention");
        assertThat(anonymous.statusCode()).isEqualTo(303);
        assertThat(anonymous.headers().firstValue("Location").orElseThrow()).endsWith("/console/login");
        HttpResponse<String> bearer = http.send(
                HttpRequest.newBuilder(URI.create(baseUri() + "/console/attention"))
                        .header("Authorization", "Bearer " + ADMIN_TOKEN)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(bearer.statusCode())
                .as("the console is a session's, not a bearer's")
                .isEqualTo(303);
        assertThat(post("/console/logout", "").statusCode()).isEqualTo(401);

        assertThat(logIn("wrong-token").statusCode()).isEqualTo(401);
        HttpResponse<String> login = logIn(ADMIN_TOKEN);
        assertThat(login.statusCode()).isEqualTo(302);
        String cookie = login.headers().allValues("Set-Cookie").stream()
                .filter(c -> c.startsWith("KOPEK_CONSOLE="))
                .findFirst()
                .orElseThrow();
        assertThat(cookie).contains("HttpOnly", "SameSite=Strict", "Path=/console");
        assertThat(get("/console/attention").statusCode()).isEqualTo(200);
    }

    @Test
    void readingWorksWithoutJavaScriptAndShowsMoneyWithItsExponent() throws Exception {
        Api api = newMerchant();
        String reference = newReference();
        String id = api.pay(Api.newKey(), Api.payment(reference, 500, "JPY", "pm_ok"))
                .text("id");
        login();

        HttpResponse<String> search = get("/console/payments?q=" + reference);
        assertThat(search.statusCode()).isEqualTo(200);
        assertThat(search.body()).contains(id, "500 JPY").doesNotContain("500.0");
        HttpResponse<String> story = get("/console/payments/" + id);
        assertThat(story.body()).contains("PSP calls", "Ledger", "payment.captured", "500 JPY");
        for (String page :
                new String[] {"/console/attention", "/console/reconciliation", "/console/health", "/console/audit"}) {
            HttpResponse<String> answer = get(page);
            assertThat(answer.statusCode()).as(page).isEqualTo(200);
            assertThat(answer.headers().firstValue("Content-Security-Policy").orElseThrow())
                    .contains("default-src");
        }
    }

    @Test
    void actionsWithoutTheSessionsCsrfTokenAreRefusedAndChangeNothing() throws Exception {
        String csrf = login();
        long before = rows("audit_events");
        String breakId = "brk_01a238f61f6677be91e459cc5f6b60c2";

        assertThat(post("/console/breaks/" + breakId + "/acknowledge", "note=x").statusCode())
                .isEqualTo(403);
        assertThat(post("/console/breaks/" + breakId + "/acknowledge", "note=x&_csrf=" + "0".repeat(64))
                        .statusCode())
                .isEqualTo(403);
        HttpResponse<String> unknown = post("/console/breaks/" + breakId + "/acknowledge", "note=x&_csrf=" + csrf);
        assertThat(unknown.statusCode()).isEqualTo(302);
        assertThat(rows("audit_events")).isEqualTo(before);
        HttpResponse<String> foreign = post("/console/breaks/" + breakId + "/acknowledge", "note=x");
        assertThat(foreign.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/html");
        assertThat(foreign.body()).contains("CSRF").doesNotContain("Exception");
    }

    @Test
    void aNamedIdentityLogsInActsUnderItsNameAndIsLockedOutWhenRevoked() throws Exception {
        Api.Response issued = admin().post(
                        "/v1/admin/identities",
                        null,
                        "{\"name\":\"console-"
                                + java.util.UUID.randomUUID().toString().substring(0, 8) + "\"}");
        assertThat(issued.status()).isEqualTo(201);
        String name = issued.text("name");
        String csrf = login(issued.text("token"));
        Api merchant = newMerchant();
        var endpoint = merchant.post(
                        "/v1/webhook-endpoints",
                        Api.newKey(),
                        "{\"url\":\"https://example.com/console\",\"event_types\":[\"*\"]}")
                .text("id");
        jdbc.sql("UPDATE webhook_endpoints SET status = 'DISABLED', disabled_reason = 'test' WHERE id = :id")
                .param("id", dev.kopek.money.PrefixedId.parse("we", endpoint).orElseThrow())
                .update();

        HttpResponse<String> done = post("/console/endpoints/" + endpoint + "/reenable", "_csrf=" + csrf);

        assertThat(done.statusCode()).isEqualTo(302);
        var event = admin().get("/v1/ops/audit?target=" + endpoint)
                .json()
                .get("data")
                .get(0);
        assertThat(event.get("action").asString()).isEqualTo("webhook_endpoint.reenabled");
        assertThat(event.get("actor").get("name").asString()).isEqualTo(name);
        assertThat(event.get("actor").get("id").asString()).isEqualTo(issued.text("id"));
        assertThat(get("/console/audit?target=" + endpoint).body()).contains("webhook_endpoint.reenabled", name);

        assertThat(admin().delete("/v1/admin/identities/" + issued.text("id")).status())
                .isEqualTo(200);
        assertThat(get("/console/attention").statusCode())
                .as("a revoked identity's session ends")
                .isEqualTo(303);
        assertThat(post("/console/endpoints/" + endpoint + "/reenable", "_csrf=" + csrf)
                        .statusCode())
                .isEqualTo(401);
        assertThat(logIn(issued.text("token")).statusCode()).isEqualTo(401);
    }

    @Test
    void theBreakApiTakesTheDeciderFromTheCredentialsNotTheBody() {
        String breakId = "brk_01a238f61f6677be91e459cc5f6b60c2";
        for (String field : new String[] {"by", "resolved_by", "acknowledged_by"}) {
            Api.Response refused = admin().post(
                            "/v1/ops/recon-breaks/" + breakId + "/resolve",
                            null,
                            "{\"" + field + "\":\"mallory\",\"note\":\"n\"}");
            assertThat(refused.status()).isEqualTo(400);
            assertThat(refused.text("code")).isEqualTo("actor_from_credentials");
        }
        assertThat(admin().post("/v1/ops/recon-breaks/" + breakId + "/acknowledge", null, "{}")
                        .status())
                .isEqualTo(404);
    }

    @Test
    void badInputIsA400PageNeverA500() throws Exception {
        String csrf = login();
        String review = "/console/reviews/mrv_01a238f61f6677be91e459cc5f6b60c2/resolve";
        for (String body : new String[] {
            "decision=maybe&note=n",
            "decision=captured&note=n",
            "decision=failed",
            "decision=failed&note=" + "x".repeat(2001)
        }) {
            HttpResponse<String> refused = post(review, body + "&_csrf=" + csrf);
            assertThat(refused.statusCode()).as(body).isEqualTo(400);
            assertThat(refused.headers().firstValue("Content-Type").orElseThrow())
                    .startsWith("text/html");
        }
        assertThat(post("/console/reviews/not-an-id/resolve", "decision=failed&note=n&_csrf=" + csrf)
                        .statusCode())
                .isEqualTo(400);
        assertThat(get("/console/payments?status=bogus").statusCode()).isEqualTo(400);
        assertThat(get("/console/payments?from=2026-13-45").statusCode()).isEqualTo(400);
        assertThat(get("/console/payments/pay_nothing").statusCode()).isEqualTo(400);
        assertThat(get("/console/reconciliation?type=nope").statusCode()).isEqualTo(400);
        assertThat(get("/console/payments?q=" + enc("pay_\u0000")).statusCode()).isEqualTo(400);
        assertThat(get("/console/audit?before=9999999999999999999").statusCode())
                .isEqualTo(400);
        assertThat(get("/console/audit?before=" + enc("\u0661\u0662")).statusCode())
                .isEqualTo(400);
        byte[] notUtf8 = {'n', 'o', 't', 'e', '=', (byte) 0xff, (byte) 0xfe, '&', '_', 'c', 's', 'r', 'f', '='};
        HttpResponse<String> garbled = postBytes(
                "/console/breaks/brk_01a238f61f6677be91e459cc5f6b60c2/acknowledge",
                concat(notUtf8, csrf.getBytes(StandardCharsets.US_ASCII)));
        // The access decision reads the form's CSRF token first, and Tomcat refuses to parse it: a page too.
        assertThat(garbled.statusCode()).as("a form that is not UTF-8").isEqualTo(400);
        assertThat(garbled.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/html");
        assertThat(garbled.body()).contains("could not read this form").doesNotContain("\"code\"");
        HttpResponse<String> badEscape =
                post("/console/breaks/brk_01a238f61f6677be91e459cc5f6b60c2/acknowledge", "note=%zz&_csrf=" + csrf);
        assertThat(badEscape.statusCode()).as("a broken %-escape").isEqualTo(400);
        assertThat(badEscape.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/html");
        assertThat(post(
                                "/console/breaks/brk_01a238f61f6677be91e459cc5f6b60c2/acknowledge",
                                "note=%zz&_csrf=" + "0".repeat(64))
                        .statusCode())
                .as("unreadable, whatever the token")
                .isEqualTo(400);
        String breakNote = "/console/breaks/brk_01a238f61f6677be91e459cc5f6b60c2/acknowledge";
        for (String note : new String[] {"card 4111 1111 1111 1111", "a\u009bb", "a\u007fb"}) {
            HttpResponse<String> refused = post(breakNote, "note=" + enc(note) + "&_csrf=" + csrf);
            assertThat(refused.statusCode()).as(note).isEqualTo(400);
            assertThat(refused.body()).doesNotContain("4111 1111");
        }
    }

    @Test
    void deadLetterNotificationsAreListedUnderNeedsAttention() throws Exception {
        String event = "evt_dead_" + java.util.UUID.randomUUID();
        jdbc.sql("""
                INSERT INTO psp_notifications (id, provider, event_id, type, psp_reference, payload, received_at,
                                               processed_at, outcome, note, tries)
                VALUES (:id, 'simulator', :event, 'charge.succeeded', 'ch_dead', '{}', now(), now(), 'dead',
                        'no payment under this key after 8 tries', 8)
                """)
                .param("id", java.util.UUID.randomUUID())
                .param("event", event)
                .update();
        login();

        String page = get("/console/attention").body();

        assertThat(page)
                .contains("Dead-letter PSP notifications", event, "ch_dead", "no payment under this key after 8 tries");
    }

    @Test
    void theLoginFormHasItsOwnCsrfCheck() throws Exception {
        long before = rows("audit_events");
        HttpClient stranger = HttpClient.newHttpClient();
        String form = "token=" + enc(ADMIN_TOKEN) + "&_csrf=" + "a".repeat(64);
        HttpResponse<String> forged = stranger.send(
                HttpRequest.newBuilder(URI.create(baseUri() + "/console/login"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(form))
                        .build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(forged.statusCode())
                .as("a form posted from another site has no login cookie")
                .isEqualTo(403);
        assertThat(forged.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/html");
        assertThat(forged.headers().allValues("Set-Cookie")).noneMatch(c -> c.startsWith("KOPEK_CONSOLE="));
        get("/console/login");
        assertThat(post("/console/login", "token=" + enc(ADMIN_TOKEN)).statusCode())
                .as("no field")
                .isEqualTo(403);
        assertThat(post("/console/login", form).statusCode())
                .as("another field")
                .isEqualTo(403);
        assertThat(get("/console/attention").statusCode()).as("not logged in").isEqualTo(303);
        assertThat(rows("audit_events")).as("a forged form is not an attempt").isEqualTo(before);
        assertThat(logIn(ADMIN_TOKEN).statusCode()).isEqualTo(302);
    }

    @Test
    void logInsFailedLogInsAndLogOutsAreAuditedWithoutTheToken() throws Exception {
        String guess = "kad_" + java.util.UUID.randomUUID().toString().replace("-", "");
        assertThat(logIn(guess).statusCode()).isEqualTo(401);
        String csrf = login();
        assertThat(post("/console/logout", "_csrf=" + csrf).statusCode()).isEqualTo(302);

        var failed = admin().get("/v1/ops/audit?target=" + guess.substring(0, 12))
                .json()
                .get("data")
                .get(0);
        assertThat(failed.get("action").asString()).isEqualTo("console.login_failed");
        assertThat(failed.get("actor").get("id").asString()).isEqualTo("system:console-login");
        var mine =
                admin().get("/v1/ops/audit?actor=adm_bootstrap&limit=2").json().get("data");
        assertThat(mine.get(0).get("action").asString()).isEqualTo("console.logged_out");
        assertThat(mine.get(1).get("action").asString()).isEqualTo("console.logged_in");
        assertThat(jdbc.sql("SELECT count(*) FROM audit_events WHERE CAST(after AS text) LIKE :a"
                                + " OR target_id LIKE :a OR CAST(after AS text) LIKE :b OR target_id LIKE :b")
                        .param("a", "%" + guess.substring(12) + "%")
                        .param("b", "%" + ADMIN_TOKEN + "%")
                        .query(Long.class)
                        .single())
                .as("no token in the audit trail")
                .isZero();
    }

    @Test
    void aLogInFormThatIsNotUtf8IsA400PageNotA500() throws Exception {
        Matcher field = CSRF.matcher(get("/console/login").body());
        assertThat(field.find()).isTrue();
        byte[] form = concat(
                new byte[] {
                    't',
                    'o',
                    'k',
                    'e',
                    'n',
                    '=',
                    (byte) 0xff,
                    (byte) 0xfe,
                    '%',
                    '0',
                    '0',
                    '&',
                    '_',
                    'c',
                    's',
                    'r',
                    'f',
                    '='
                },
                field.group(1).getBytes(StandardCharsets.US_ASCII));
        HttpResponse<String> answer = postBytes("/console/login", form);
        assertThat(answer.statusCode()).isEqualTo(400);
        assertThat(answer.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/html");
    }

    @Test
    void failedLogInsFromOneAddressAreLimitedWithAPageNotA500() throws Exception {
        try {
            HttpResponse<String> refused = null;
            for (int i = 0; i < 25 && (refused == null || refused.statusCode() == 401); i++) {
                refused = logIn("wrong-" + i);
            }
            assertThat(refused.statusCode()).isEqualTo(429);
            assertThat(refused.headers().firstValue("Content-Type").orElseThrow())
                    .startsWith("text/html");
            assertThat(refused.headers().firstValue("Retry-After")).isPresent();
            assertThat(refused.body()).contains("Too many failed log-ins").doesNotContain("Exception");
            assertThat(logIn(ADMIN_TOKEN).statusCode())
                    .as("past the limit even the right token is not checked")
                    .isEqualTo(429);
            assertThat(get("/console/attention").statusCode()).isEqualTo(303);
        } finally {
            clock.advance(java.time.Duration.ofMinutes(16));
        }
        assertThat(logIn(ADMIN_TOKEN).statusCode()).as("after the window").isEqualTo(302);
    }

    @Test
    void unknownConsoleAddressesAreAnHtml404() throws Exception {
        for (String path :
                new String[] {"/console/nothing-here", "/console/payments/pay_x/more", "/console/assets/none.css"}) {
            HttpResponse<String> missing = get(path);
            assertThat(missing.statusCode()).as(path).isEqualTo(404);
            assertThat(missing.headers().firstValue("Content-Type").orElseThrow())
                    .as(path)
                    .startsWith("text/html");
            assertThat(missing.body()).as(path).contains("Not found").doesNotContain("problem");
            assertShowsItsRequestId(missing);
        }
        String csrf = login();
        HttpResponse<String> put = http.send(
                HttpRequest.newBuilder(URI.create(baseUri() + "/console/payments?_csrf=" + csrf))
                        .PUT(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(put.statusCode()).isEqualTo(405);
        assertThat(put.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/html");
        assertShowsItsRequestId(put);
        assertThat(get("/console/nothing-here").statusCode()).isEqualTo(404);
        assertThat(get("/console/nothing-here")
                        .headers()
                        .firstValue("Content-Type")
                        .orElseThrow())
                .startsWith("text/html");
        String noSuchPayment = "pay_" + java.util.UUID.randomUUID().toString().replace("-", "");
        HttpResponse<String> unknown = get("/console/payments/" + noSuchPayment);
        assertThat(unknown.statusCode()).as("a well-formed id of no payment").isEqualTo(404);
        assertThat(unknown.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/html");
        assertThat(unknown.body()).contains("Not found", "There is no payment " + noSuchPayment);
        assertShowsItsRequestId(unknown);
        HttpResponse<String> forged = post(
                "/console/breaks/brk_01a238f61f6677be91e459cc5f6b60c2/acknowledge", "note=n&_csrf=" + "0".repeat(64));
        assertThat(forged.statusCode()).isEqualTo(403);
        assertShowsItsRequestId(forged);
    }

    /**
     * Addresses the firewall refuses before any route is chosen (';' parameters, an encoded '/' or dot segment) are
     * a console page under /console, and stay the API's problem+json elsewhere.
     */
    @Test
    void mangledConsoleAddressesAreAnHtml400() throws Exception {
        login();
        for (String path : new String[] {
            "/console/payments;jsessionid=abc",
            "/console;x=y/payments",
            "/console/payments/a%2Fb",
            "/console/%2e%2e/actuator/prometheus"
        }) {
            HttpResponse<String> refused = get(path);
            assertThat(refused.statusCode()).as(path).isEqualTo(400);
            assertThat(refused.headers().firstValue("Content-Type").orElseThrow())
                    .as(path)
                    .startsWith("text/html");
            assertThat(refused.body()).as(path).contains("Not done", "not in a form Kopek accepts");
            assertShowsItsRequestId(refused);
        }
        HttpResponse<String> api = get("/v1/payments;x=y");
        assertThat(api.statusCode()).isEqualTo(400);
        assertThat(api.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/problem+json");
    }

    /** A refusal page names the request (the id its log lines carry), as a problem body does. */
    private static void assertShowsItsRequestId(HttpResponse<String> page) {
        String requestId = page.headers().firstValue("X-Request-Id").orElseThrow();
        assertThat(requestId).matches("req_[0-9a-f]{24}");
        assertThat(page.body()).as(page.uri().toString()).contains("Request id <code>" + requestId + "</code>");
    }

    /** The ledger drift runbook starts here: the Health page shows this instance's last check. */
    @Test
    void theHealthPageShowsTheLastLedgerDriftCheck() throws Exception {
        login();
        DriftReport report = driftChecker.check();

        String page = get("/console/health").body();

        Matcher row = Pattern.compile("id=\"ledger-drift\">.*?<td class=\"num[^\"]*\">([^<]*)</td>", Pattern.DOTALL)
                .matcher(page);
        assertThat(row.find()).as(page).isTrue();
        assertThat(row.group(1)).startsWith(report.drifts().size() + " of " + report.accountsChecked() + " accounts, ");
    }

    @Test
    void moneyIsShiftedByTheExponentWithIntegers() {
        assertThat(ConsoleFormat.decimal(499_000, 2)).isEqualTo("4990.00");
        assertThat(ConsoleFormat.decimal(500, 0)).isEqualTo("500");
        assertThat(ConsoleFormat.decimal(5, 2)).isEqualTo("0.05");
        assertThat(ConsoleFormat.decimal(1_234, 3)).isEqualTo("1.234");
        assertThat(ConsoleFormat.decimal(-12_345, 2)).isEqualTo("-123.45");
        assertThat(ConsoleFormat.decimal(Long.MAX_VALUE, 2)).isEqualTo("92233720368547758.07");
    }

    private String login() throws Exception {
        return login(ADMIN_TOKEN);
    }

    private String login(String token) throws Exception {
        assertThat(logIn(token).statusCode()).isEqualTo(302);
        Matcher m = CSRF.matcher(get("/console/payments").body());
        assertThat(m.find()).isTrue();
        return m.group(1);
    }

    /** As a browser does: open the login form (its CSRF cookie and field), then post it with the token. */
    private HttpResponse<String> logIn(String token) throws IOException, InterruptedException {
        Matcher field = CSRF.matcher(get("/console/login").body());
        assertThat(field.find()).as("the login form's CSRF field").isTrue();
        return post("/console/login", "token=" + enc(token) + "&_csrf=" + field.group(1));
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create(baseUri() + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String form) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create(baseUri() + path))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(form))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> postBytes(String path, byte[] form) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create(baseUri() + path))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(form))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static byte[] concat(byte[] head, byte[] tail) {
        byte[] all = java.util.Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }

    private static String enc(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}

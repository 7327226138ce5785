package dev.kopek.support;

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

/**
 * The operator console as a browser with JavaScript off sees it: a cookie jar with the console's session, and the
 * CSRF token read from its pages, which every POST sends back.
 */
public final class ConsoleBrowser {

    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([0-9a-f]{64})\"");

    private final CookieManager cookies = new CookieManager();
    private final HttpClient http =
            HttpClient.newBuilder().cookieHandler(cookies).build();
    private final URI base;
    private String csrf;

    private ConsoleBrowser(URI base) {
        this.base = base;
    }

    /** Logs in with an admin token and reads the session's CSRF token; fails if either does not work. */
    public static ConsoleBrowser loggedIn(URI base, String token) throws IOException, InterruptedException {
        ConsoleBrowser browser = new ConsoleBrowser(base);
        HttpResponse<String> login = browser.logIn(token);
        if (login.statusCode() != 302) {
            throw new IllegalStateException("console login answered " + login.statusCode());
        }
        Matcher m = CSRF.matcher(browser.get("/console/payments").body());
        if (!m.find()) {
            throw new IllegalStateException("no CSRF token on the console's page");
        }
        browser.csrf = m.group(1);
        return browser;
    }

    /** As a browser does: open the login form (its CSRF cookie and field), then post it with the token. */
    public HttpResponse<String> logIn(String token) throws IOException, InterruptedException {
        Matcher field = CSRF.matcher(get("/console/login").body());
        if (!field.find()) {
            throw new IllegalStateException("no CSRF field on the login form");
        }
        return post(
                "/console/login",
                "token=" + URLEncoder.encode(token, StandardCharsets.UTF_8) + "&_csrf=" + field.group(1));
    }

    /** The session cookie as a {@code Cookie} header value, for a client that sends its own headers. */
    public String sessionCookie() {
        return cookies.getCookieStore().getCookies().stream()
                .filter(c -> c.getName().equals("KOPEK_CONSOLE"))
                .map(c -> c.getName() + "=" + c.getValue())
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no console session cookie"));
    }

    public String csrf() {
        return csrf;
    }

    public HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(base.resolve(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A form post; the session's CSRF token is added when there is one. */
    public HttpResponse<String> post(String path, String form) throws IOException, InterruptedException {
        String body = csrf == null ? form : (form.isEmpty() ? "" : form + "&") + "_csrf=" + csrf;
        return http.send(
                HttpRequest.newBuilder(base.resolve(path))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Any method, with the session and its CSRF token. */
    public HttpResponse<String> send(String method, String path) throws IOException, InterruptedException {
        return "GET".equals(method)
                ? get(path)
                : http.send(
                        HttpRequest.newBuilder(base.resolve(path))
                                .header("Content-Type", "application/x-www-form-urlencoded")
                                .method(method, HttpRequest.BodyPublishers.ofString("_csrf=" + csrf))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }
}

package dev.kopek.support;

import static org.assertj.core.api.Assertions.assertThat;

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

/** An admin logged in to the console, as a browser with JavaScript off: its session cookie and plain GETs. */
public final class ConsoleSession {

    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([0-9a-f]{64})\"");

    private final HttpClient browser =
            HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
    private final URI base;

    private ConsoleSession(URI base) {
        this.base = base;
    }

    public static ConsoleSession logIn(URI base, String adminToken) throws IOException, InterruptedException {
        ConsoleSession session = new ConsoleSession(base);
        Matcher field = CSRF.matcher(session.get("/console/login").body());
        assertThat(field.find()).as("the login form's CSRF field").isTrue();
        String form = "token=" + URLEncoder.encode(adminToken, StandardCharsets.UTF_8) + "&_csrf=" + field.group(1);
        HttpResponse<String> login = session.browser.send(
                HttpRequest.newBuilder(base.resolve("/console/login"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(form))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(login.statusCode()).as("console login").isEqualTo(302);
        return session;
    }

    public HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return browser.send(HttpRequest.newBuilder(base.resolve(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A page that must answer 200; its HTML. */
    public String page(String path) throws IOException, InterruptedException {
        HttpResponse<String> page = get(path);
        assertThat(page.statusCode()).as(path).isEqualTo(200);
        return page.body();
    }
}

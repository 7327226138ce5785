package dev.kopek.support;

import dev.kopek.KopekApplication;
import dev.kopek.merchants.Merchants;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A whole Kopek on a PostgreSQL server of the test's own ({@link OwnPostgres}), for tests that do to the server what
 * they may not do to the shared one: stop it, make it read-only, migrate under a running instance. The web server
 * listens on a random port and the background workers are off, so what a test sees is what it ran; the test adds
 * the settings its case needs (the pool's size and timeouts).
 */
public final class OwnKopek implements AutoCloseable {

    private final OwnPostgres server;
    private final ConfigurableApplicationContext context;

    private OwnKopek(OwnPostgres server, ConfigurableApplicationContext context) {
        this.server = server;
        this.context = context;
    }

    /** A fresh server and Kopek on it, with {@code settings} ({@code --name=value}) after the common ones. */
    public static OwnKopek start(String... settings) {
        OwnPostgres server = OwnPostgres.fresh();
        List<String> args = new ArrayList<>(List.of(
                "--server.port=0",
                "--kopek.db.url=" + server.jdbcUrl(),
                "--kopek.db.user=postgres",
                "--kopek.psp.simulator-url=" + SharedSimulator.get().baseUri(),
                "--kopek.demo-enabled=false",
                "--kopek.admin-token=" + IntegrationTest.ADMIN_TOKEN,
                "--kopek.secrets-key=" + IntegrationTest.SECRETS_KEY,
                "--kopek.reconciler.enabled=false",
                "--kopek.outbox.workers-enabled=false",
                "--kopek.settlement.enabled=false"));
        args.addAll(List.of(settings));
        try {
            return new OwnKopek(
                    server, new SpringApplicationBuilder(KopekApplication.class).run(args.toArray(String[]::new)));
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    public OwnPostgres server() {
        return server;
    }

    public ConfigurableApplicationContext context() {
        return context;
    }

    public URI base() {
        return URI.create("http://127.0.0.1:"
                + ((WebServerApplicationContext) context).getWebServer().getPort());
    }

    /** The API as a merchant created here with {@code name}, with a key of its own. */
    public Api merchant(String name) {
        Merchants merchants = context.getBean(Merchants.class);
        return new Api(base(), merchants.issueKey(merchants.create(name).id()).secret());
    }

    @Override
    public void close() {
        try {
            context.close();
        } finally {
            server.close();
        }
    }
}

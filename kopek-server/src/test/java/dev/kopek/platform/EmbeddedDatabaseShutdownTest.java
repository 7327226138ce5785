package dev.kopek.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On SIGTERM the web server drains its requests before the pool and then the embedded PostgreSQL close (Spring
 * destroys the beans in that order). The embedded library registers a JVM shutdown hook of its own by default,
 * which stops the server at once, in parallel with that drain: running the container image found a payment in
 * flight at {@code podman stop} answered with an empty reply and "HikariDataSource has been closed" in the log. So
 * Kopek's embedded server must not stop on the JVM's shutdown, only when Kopek closes it. A child JVM starts it and
 * is sent SIGTERM without closing it; the server must still answer afterwards (then the test stops it).
 */
class EmbeddedDatabaseShutdownTest {

    @Test
    void theJvmsShutdownDoesNotStopTheEmbeddedServerOnlyClosingItDoes(@TempDir Path dataDir) throws Exception {
        Process child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        Child.class.getName(),
                        dataDir.toString())
                .redirectErrorStream(true)
                .start();
        int port;
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            port = readyPort(out);
            child.destroy();
            assertThat(child.waitFor(60, TimeUnit.SECONDS))
                    .as("the child JVM ended")
                    .isTrue();
        } finally {
            child.destroyForcibly();
        }
        try {
            try (Connection c =
                    DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/postgres", "postgres", "")) {
                assertThat(c.isValid(5)).isTrue();
            }
        } finally {
            stopServer(dataDir.resolve("postgres"));
        }
    }

    private static int readyPort(BufferedReader out) throws IOException {
        List<String> seen = new ArrayList<>();
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.startsWith("ready ")) {
                return Integer.parseInt(line.substring("ready ".length()).strip());
            }
            seen.add(line);
        }
        throw new AssertionError("the child JVM ended before the embedded server was ready: " + seen);
    }

    /** Stops a server nobody closed: SIGTERM (smart shutdown) to the postmaster named in postmaster.pid. */
    private static void stopServer(Path pgData)
            throws IOException, ExecutionException, InterruptedException, TimeoutException {
        Path pidFile = pgData.resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        long pid = Long.parseLong(Files.readAllLines(pidFile).getFirst().strip());
        var postmaster = ProcessHandle.of(pid);
        if (postmaster.isPresent()) {
            postmaster.get().destroy();
            postmaster.get().onExit().get(60, TimeUnit.SECONDS);
        }
    }

    /** The child JVM: starts Kopek's embedded server, says on which port, and waits to be signalled. */
    static final class Child {
        private Child() {}

        public static void main(String[] args) throws InterruptedException {
            var database = DatabaseConfiguration.EmbeddedDatabase.start(Path.of(args[0]));
            System.out.println("ready " + database.postgres().getPort());
            System.out.flush();
            new CountDownLatch(1).await();
        }
    }
}

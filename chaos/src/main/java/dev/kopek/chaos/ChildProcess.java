package dev.kopek.chaos;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A process of the run's own (a JVM, or a cluster member such as Patroni or etcd), logging to a file appended
 * across restarts, that can be killed with SIGKILL, frozen with SIGSTOP and resumed.
 */
final class ChildProcess {

    private static final HttpClient PROBE =
            HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();

    private final String name;
    private final List<String> command;
    private final Map<String, String> env;
    private final Path log;
    private volatile Process process;

    /** A JVM running an executable jar. */
    ChildProcess(String name, List<String> jvmArgs, Path jar, List<String> args, Map<String, String> env, Path log) {
        this(name, java(jvmArgs, List.of("-jar", jar.toString()), args), env, log);
    }

    /** Any command, as given. */
    ChildProcess(String name, List<String> command, Map<String, String> env, Path log) {
        this.name = name;
        this.command = List.copyOf(command);
        this.env = Map.copyOf(env);
        this.log = log;
    }

    /**
     * A JVM running another main class of a Spring Boot executable jar (its nested libraries on the class path):
     * the run's own jar carries Kafka's broker, which the run starts as separate processes.
     */
    static ChildProcess mainOf(
            String name,
            List<String> jvmArgs,
            Path bootJar,
            String mainClass,
            List<String> args,
            Map<String, String> env,
            Path log) {
        List<String> launch = List.of(
                "-Dloader.main=" + mainClass,
                "-cp",
                bootJar.toString(),
                "org.springframework.boot.loader.launch.PropertiesLauncher");
        return new ChildProcess(name, java(jvmArgs, launch, args), env, log);
    }

    private static List<String> java(List<String> jvmArgs, List<String> launch, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmArgs);
        cmd.addAll(launch);
        cmd.addAll(args);
        return cmd;
    }

    String name() {
        return name;
    }

    Path log() {
        return log;
    }

    synchronized void start() {
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().putAll(env);
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    boolean alive() {
        Process p = process;
        return p != null && p.isAlive();
    }

    /** kill -9: no shutdown hook, no drain, no graceful anything. */
    synchronized void kill() {
        Process p = process;
        if (p != null) {
            p.destroyForcibly();
            try {
                p.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The process id, or -1 when it never started. */
    long pid() {
        Process p = process;
        return p == null ? -1 : p.pid();
    }

    /** SIGTERM and wait (bounded), then SIGKILL. */
    synchronized void stop() {
        Process p = process;
        if (p == null) {
            return;
        }
        p.destroy();
        try {
            if (!p.waitFor(Duration.ofSeconds(20))) {
                kill();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill();
        }
    }

    /** One probe: does the URL answer 200 now (within two seconds)? */
    boolean answersOk(URI uri) {
        try {
            return PROBE.send(
                                    HttpRequest.newBuilder(uri)
                                            .timeout(Duration.ofSeconds(2))
                                            .GET()
                                            .build(),
                                    HttpResponse.BodyHandlers.discarding())
                            .statusCode()
                    == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Polls a URL until it answers 200, the process dies or the deadline passes. */
    boolean awaitHttpOk(URI uri, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline && alive()) {
            try {
                var response = PROBE.send(
                        HttpRequest.newBuilder(uri)
                                .timeout(Duration.ofSeconds(2))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
                if (response.statusCode() == 200) {
                    return true;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            Pause.millis(250);
        }
        return false;
    }
}

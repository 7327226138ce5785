package dev.kopek.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Prometheus's own promtool (Debian's prometheus package), for tests of the alert rules in ops/prometheus. Without
 * it a test is skipped loudly on a developer's machine and fails in CI (CI=true), where .ci/run installs it.
 */
public final class Promtool {

    public static final Path BINARY = Path.of(System.getenv().getOrDefault("PROMTOOL_BIN", "/usr/bin/promtool"));
    /** The rule files, from kopek-server. */
    public static final Path RULES = Path.of("..", "ops", "prometheus");

    private Promtool() {}

    /** What promtool printed (stdout and stderr together) and how it exited. */
    public record Result(int exit, String output) {}

    /** Skips the calling test here, fails it in CI, when promtool is missing. */
    public static void required(String test) {
        if (!Files.isExecutable(BINARY)) {
            String message = "\n\n*** " + test + " needs promtool: " + BINARY + " (apt-get install prometheus). ***\n";
            if ("true".equals(System.getenv("CI"))) {
                throw new IllegalStateException(message + "CI must check the alert rules; .ci/run installs it.");
            }
            System.err.println(message + "Skipping it on this machine.\n");
            Assumptions.abort("promtool is not installed");
        }
    }

    /** Runs promtool in the rule files' folder. */
    public static Result run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(BINARY.toString()));
        command.addAll(List.of(args));
        Path output = Files.createTempFile("promtool", ".out");
        try {
            Process process = new ProcessBuilder(command)
                    .directory(RULES.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .start();
            process.getOutputStream().close();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("promtool " + String.join(" ", args) + " did not finish in 60 s");
            }
            return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } finally {
            Files.delete(output);
        }
    }
}

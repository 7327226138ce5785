package dev.kopek.chaos;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Short commands the run needs to run to their end ({@code kill -STOP}, {@code patronictl}, format tools). */
final class Commands {

    /** How a command ended: its exit code (-1 when it outlived its time) and what it printed, both streams. */
    record Outcome(int exit, String output) {
        boolean ok() {
            return exit == 0;
        }
    }

    private Commands() {}

    static Outcome run(List<String> command, Duration timeout) {
        try {
            Process p = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
            // The output is read after the end: these commands print a few lines, far below a pipe's buffer.
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                return new Outcome(-1, new String(p.getInputStream().readNBytes(8192), StandardCharsets.UTF_8));
            }
            return new Outcome(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(-1, "interrupted");
        }
    }

    /** Whether an executable of that name is on the PATH. */
    static boolean onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (new File(dir, name).canExecute()) {
                return true;
            }
        }
        return false;
    }
}

package dev.kopek.simulator;

import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.concurrent.CountDownLatch;

/**
 * Standalone entry point: {@code java -jar acquirer-simulator-exec.jar [--bind ADDRESS] --port N
 * [--key-window-seconds S] [--webhook-url URL]}. It listens on 127.0.0.1 unless {@code --bind} names another address
 * ({@code 0.0.0.0} in a container). {@code --webhook-url} is where its signed notifications go from the start, as
 * {@code POST /_sim/config} would set it later: a container started by compose has no one to send that request.
 * Runs until SIGTERM or Ctrl-C, then closes the server through a shutdown hook.
 */
public final class AcquirerSimulatorMain {
    static final int DEFAULT_PORT = 9090;
    static final String DEFAULT_BIND = "127.0.0.1";
    private static final String USAGE =
            "usage: acquirer-simulator [--bind ADDRESS] [--port N] [--key-window-seconds S] [--webhook-url URL]";

    private AcquirerSimulatorMain() {}

    /** Parsed command line. */
    record Options(String bind, int port, Long keyWindowSeconds, URI webhookUrl) {}

    public static void main(String[] args) throws InterruptedException {
        Options options;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            fail(e.getMessage() + System.lineSeparator() + USAGE, 2);
            return;
        }
        AcquirerSimulator simulator;
        try {
            simulator = start(options);
        } catch (UncheckedIOException e) {
            fail(e.getMessage() + ": " + e.getCause().getMessage(), 1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            simulator.close();
                            stopped.countDown();
                        },
                        "acquirer-sim-shutdown"));
        System.out.println("Acquirer simulator listening on " + simulator.baseUri());
        stopped.await();
    }

    static AcquirerSimulator start(Options options) {
        AcquirerSimulator simulator = AcquirerSimulator.start(address(options.bind()), options.port());
        if (options.keyWindowSeconds() != null) {
            simulator.configure(simulator.config().withKeyWindowSeconds(options.keyWindowSeconds()));
        }
        if (options.webhookUrl() != null) {
            simulator.configure(simulator.config().withWebhookUrl(options.webhookUrl()));
        }
        return simulator;
    }

    static Options parse(String[] args) {
        String bind = DEFAULT_BIND;
        int port = DEFAULT_PORT;
        Long keyWindow = null;
        URI webhookUrl = null;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--bind" -> bind = text(arg, args, ++i);
                case "--port" -> port = (int) number(arg, args, ++i, 0, 65_535);
                case "--key-window-seconds" -> keyWindow = number(arg, args, ++i, 0, Long.MAX_VALUE);
                case "--webhook-url" -> webhookUrl = url(arg, text(arg, args, ++i));
                default -> throw new IllegalArgumentException("unknown argument " + arg);
            }
        }
        return new Options(bind, port, keyWindow, webhookUrl);
    }

    /** An absolute http(s) URL, checked here so that a wrong one is a usage error rather than a failed start. */
    private static URI url(String name, String text) {
        try {
            URI url = new URI(text);
            WebhookSettings.defaults().withUrl(url);
            return url;
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new IllegalArgumentException(name + " must be an absolute http or https URL");
        }
    }

    private static String text(String name, String[] args, int index) {
        if (index >= args.length || args[index].isBlank()) {
            throw new IllegalArgumentException(name + " needs a value");
        }
        return args[index];
    }

    private static InetAddress address(String bind) {
        try {
            return InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw new UncheckedIOException("cannot resolve --bind " + bind, e);
        }
    }

    private static long number(String name, String[] args, int index, long min, long max) {
        if (index >= args.length) {
            throw new IllegalArgumentException(name + " needs a value");
        }
        try {
            long value = Long.parseLong(args[index]);
            if (value < min || value > max) {
                throw new IllegalArgumentException(name + " must be between " + min + " and " + max);
            }
            return value;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a number");
        }
    }

    private static void fail(String message, int status) {
        System.err.println(message);
        System.exit(status);
    }
}

package dev.kopek.bench;

import java.util.Random;
import java.util.function.Function;

/**
 * The drivers' common start: their flags parsed, the usage with exit 64 on a bad one, the usage alone when asked
 * for it (the parser answers null), otherwise the run and its exit code.
 */
final class Launcher {

    /** A driver's run over its parsed options; its result is the process's exit code. */
    interface Run<O> {
        int run(O options) throws Exception;
    }

    private Launcher() {}

    static <O> void launch(String[] args, Function<String[], O> parse, String usage, Run<O> run) throws Exception {
        O options;
        try {
            options = parse.apply(args);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.println(usage);
            System.exit(64);
            return;
        }
        if (options == null) {
            System.out.println(usage);
            return;
        }
        System.exit(run.run(options));
    }

    /**
     * A run's id, eight random letters. Letters only: Kopek refuses free text holding a card-like digit run (13-19
     * digits, Luhn-valid, hyphens allowed between groups), and a hex run id that happens to be all digits joins the
     * counter into one.
     */
    static String runId() {
        return new Random()
                .ints(8, 'a', 'z' + 1)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
                .toString();
    }
}

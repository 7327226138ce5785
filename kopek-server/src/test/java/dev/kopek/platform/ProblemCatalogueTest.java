package dev.kopek.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every {@code code} the code can answer is in {@link ProblemCode}, and every entry there is a code the code can
 * answer. The codes are found where problems are made: the {@link ApiProblem} and {@link Problems} factories, the
 * refusal records of the payment, refund and access code (and the capture/void {@code declinedOr} helper), a
 * {@code String code = …} chosen between literals, an
 * {@code "invalid_" + field} built from the field names its file checks, and every status
 * {@link Problems#codeFor} names.
 */
public class ProblemCatalogueTest {

    private static final Pattern FACTORY_CALL = Pattern.compile(
            "(?:ApiProblem\\.(?:of|badRequest|withHeaders)"
                    + "|Problems\\.(?:json|detail)|Refused|conflict|unauthorized|forbidden|declinedOr)"
                    + "\\(\\s*(?:[^\";]{0,80}?,\\s*)?"
                    + "\"([a-z][a-z0-9_]*)\"",
            Pattern.DOTALL);
    /** A code chosen between literals ({@code String code = a ? "x" : "y";}); other assignments read data. */
    private static final Pattern CHOSEN_CODE = Pattern.compile("String code = ([^;]*\\?[^;]*);");

    private static final Pattern LITERAL = Pattern.compile("\"([a-z][a-z0-9_]*)\"");
    private static final Pattern FIELD_HELPER = Pattern.compile("\\w+\\(body, \"([a-z_]+)\"");

    /** Code → the files that produce it. */
    static Map<String, Set<String>> producedBySource() {
        Map<String, Set<String>> codes = new TreeMap<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(file -> scan(file, codes));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (int status = 100; status < 600; status++) {
            codes.computeIfAbsent(Problems.codeFor(status), c -> new TreeSet<>())
                    .add("Problems.codeFor");
        }
        codes.computeIfAbsent("not_found", c -> new TreeSet<>()).add("ApiProblem.notFound");
        return codes;
    }

    /** The codes one source file produces, found as {@link #producedBySource} finds them. */
    public static Set<String> producedIn(Path file) {
        Map<String, Set<String>> codes = new TreeMap<>();
        scan(file, codes);
        return new TreeSet<>(codes.keySet());
    }

    private static void scan(Path file, Map<String, Set<String>> codes) {
        String source = read(file);
        String name = file.getFileName().toString();
        Matcher call = FACTORY_CALL.matcher(source);
        while (call.find()) {
            if (!call.group(1).equals("invalid_")) {
                codes.computeIfAbsent(call.group(1), c -> new TreeSet<>()).add(name);
            }
        }
        Matcher chosen = CHOSEN_CODE.matcher(source);
        while (chosen.find()) {
            Matcher literal = LITERAL.matcher(chosen.group(1));
            while (literal.find()) {
                codes.computeIfAbsent(literal.group(1), c -> new TreeSet<>()).add(name);
            }
        }
        if (source.contains("\"invalid_\" + field")) {
            Matcher field = FIELD_HELPER.matcher(source);
            while (field.find()) {
                codes.computeIfAbsent("invalid_" + field.group(1), c -> new TreeSet<>())
                        .add(name);
            }
        }
    }

    @Test
    void everyCodeTheCodeCanAnswerIsInTheCatalogue() {
        Map<String, Set<String>> produced = producedBySource();
        assertThat(produced).hasSizeGreaterThan(60);
        Set<String> missing = new TreeSet<>(produced.keySet());
        missing.removeIf(code -> ProblemCode.find(code).isPresent());
        assertThat(missing)
                .as("codes answered by the code but absent from ProblemCode (with their files: " + produced + ")")
                .isEmpty();
    }

    @Test
    void everyCatalogueEntryIsACodeTheCodeCanAnswer() {
        Set<String> produced = producedBySource().keySet();
        assertThat(Arrays.stream(ProblemCode.values()).map(ProblemCode::code).filter(c -> !produced.contains(c)))
                .as("catalogue entries no code produces")
                .isEmpty();
    }

    @Test
    void everyEntrySaysWhatItMeansAndWhatToDo() {
        for (ProblemCode code : ProblemCode.values()) {
            assertThat(code.meaning()).as(code.code()).isNotBlank().endsWith(".");
            assertThat(code.statuses()).as(code.code()).isNotEmpty().allMatch(s -> s >= 400 && s < 600);
            assertThat(code.action().advice()).isNotBlank();
        }
        assertThat(ProblemCode.find("rate_limited")).contains(ProblemCode.RATE_LIMITED);
        assertThat(ProblemCode.find("RATE_LIMITED")).isEmpty();
        assertThat(ProblemCode.find(null)).isEmpty();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

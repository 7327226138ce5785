package dev.kopek;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.springframework.util.ClassUtils;
import org.yaml.snakeyaml.Yaml;

/**
 * The configuration page's table (docs/configuration.md) is the configuration: every {@code KOPEK_*} variable that
 * application.yml reads is documented, none is documented that nothing reads, and every {@code kopek.*} setting named
 * in the table or given a variable in application.yml is a property Kopek binds ({@code @ConfigurationProperties}) or
 * reads by name.
 */
class ConfigurationDocumentationTest {

    private static final Pattern VARIABLE = Pattern.compile("KOPEK_[A-Z0-9_]*[A-Z0-9]");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{(KOPEK_[A-Z0-9_]+)");
    private static final Pattern SETTING = Pattern.compile("kopek(\\.[a-z0-9-]+)+");

    @Test
    void everyVariableIsDocumentedAndEveryDocumentedVariableExists() {
        Set<String> read = new TreeSet<>(variablesOf(applicationYml()).keySet());
        Set<String> documented = documentedVariables();

        assertThat(read).as("application.yml reads them").isNotEmpty();
        assertThat(difference(read, documented))
                .as("read by application.yml, missing from docs/configuration.md's table")
                .isEmpty();
        assertThat(difference(documented, read))
                .as("in docs/configuration.md's table, read nowhere")
                .isEmpty();
    }

    @Test
    void everySettingNamedIsOneKopekReads() {
        Set<String> known = boundProperties();
        known.addAll(settingsNamedInSources());
        Set<String> named = new TreeSet<>(documentedSettings());
        variablesOf(applicationYml()).values().stream()
                .filter(key -> key.startsWith("kopek."))
                .forEach(named::add);

        assertThat(named)
                .as("settings docs/configuration.md and application.yml name")
                .isNotEmpty();
        assertThat(difference(named, known))
                .as("named, but no @ConfigurationProperties binds them and no code reads" + " them")
                .isEmpty();
    }

    /**
     * What compose.yaml hands to its containers. KOPEK_REGISTRY and KOPEK_PORT are compose's own variables (which
     * image, which host port), read by compose, not by Kopek.
     */
    @Test
    void composeFileSetsOnlyVariablesThatExist() throws IOException {
        Set<String> read = variablesOf(applicationYml()).keySet();
        Map<String, Map<String, Object>> services = new Yaml()
                .<Map<String, Map<String, Map<String, Object>>>>load(
                        Files.readString(Path.of("..", "deploy", "compose.yaml")))
                .get("services");
        Set<String> set = services.values().stream()
                .map(service -> (Map<?, ?>) service.getOrDefault("environment", Map.of()))
                .flatMap(environment -> environment.keySet().stream())
                .map(String::valueOf)
                .filter(name -> VARIABLE.matcher(name).matches())
                .collect(Collectors.toCollection(TreeSet::new));

        assertThat(set).contains("KOPEK_BIND_ADDRESS", "KOPEK_DB_URL", "KOPEK_SECRETS_KEY");
        assertThat(difference(set, read))
                .as("set by deploy/compose.yaml, read nowhere")
                .isEmpty();
    }

    /** Variable → the property it sets, from every {@code ${KOPEK_...}} placeholder in application.yml. */
    private static Map<String, String> variablesOf(Map<String, Object> yaml) {
        Map<String, String> variables = new TreeMap<>();
        flatten("", yaml).forEach((key, value) -> {
            Matcher m = PLACEHOLDER.matcher(String.valueOf(value));
            while (m.find()) {
                variables.put(m.group(1), key);
            }
        });
        return variables;
    }

    private static Map<String, Object> flatten(String prefix, Map<?, ?> yaml) {
        Map<String, Object> flat = new TreeMap<>();
        yaml.forEach((key, value) -> {
            String name = prefix.isEmpty() ? String.valueOf(key) : prefix + "." + key;
            if (value instanceof Map<?, ?> nested) {
                flat.putAll(flatten(name, nested));
            } else {
                flat.put(name, value);
            }
        });
        return flat;
    }

    private static Map<String, Object> applicationYml() {
        try (InputStream in = ConfigurationDocumentationTest.class.getResourceAsStream("/application.yml")) {
            return new Yaml().load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Set<String> documentedVariables() {
        Set<String> variables = new TreeSet<>();
        for (String cell : firstCells()) {
            VARIABLE.matcher(cell).results().map(MatchResult::group).forEach(variables::add);
        }
        return variables;
    }

    /** {@code kopek.*} names in the table; "`kopek.psp.connect-timeout` / `read-timeout`" names two siblings. */
    private static Set<String> documentedSettings() {
        Set<String> settings = new TreeSet<>();
        for (String cell : firstCells()) {
            String parent = null;
            for (String part : cell.split("/")) {
                String name = part.replace("`", "").replaceAll("\\(.*\\)", "").strip();
                if (SETTING.matcher(name).matches()) {
                    settings.add(name);
                    parent = name.substring(0, name.lastIndexOf('.'));
                } else if (parent != null && name.matches("[a-z0-9-]+")) {
                    settings.add(parent + "." + name);
                }
            }
        }
        return settings;
    }

    /** The first column of the table under the page's title, "# Configuration". */
    private static List<String> firstCells() {
        List<String> lines = configurationPage();
        int start = lines.indexOf("# Configuration");
        assertThat(start).as("docs/configuration.md starts with its title").isNotNegative();
        List<String> cells = new ArrayList<>();
        for (String line : lines.subList(start + 1, lines.size())) {
            if (line.startsWith("## ")) {
                break;
            }
            if (line.startsWith("| ") && !line.startsWith("| variable")) {
                cells.add(line.split("\\|")[1]);
            }
        }
        assertThat(cells).as("rows of the configuration table").hasSizeGreaterThan(10);
        return cells;
    }

    private static List<String> configurationPage() {
        try {
            return Files.readAllLines(Path.of("..", "docs", "configuration.md"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every leaf property of every {@code @ConfigurationProperties} record under dev.kopek, kebab-case. */
    private static Set<String> boundProperties() {
        var scanner = new ClassPathScanningCandidateComponentProvider(false);
        scanner.addIncludeFilter(new AnnotationTypeFilter(ConfigurationProperties.class));
        Set<String> properties = new TreeSet<>();
        for (BeanDefinition candidate : scanner.findCandidateComponents("dev.kopek")) {
            Class<?> type = ClassUtils.resolveClassName(candidate.getBeanClassName(), null);
            String prefix = type.getAnnotation(ConfigurationProperties.class).value();
            collect(prefix, type, properties);
        }
        assertThat(properties)
                .as("properties bound by @ConfigurationProperties")
                .isNotEmpty();
        return properties;
    }

    private static void collect(String prefix, Class<?> type, Set<String> into) {
        for (RecordComponent component : type.getRecordComponents()) {
            String name = prefix + "." + kebab(component.getName());
            Class<?> value = component.getType();
            if (value.isRecord() && value.getName().startsWith("dev.kopek.")) {
                collect(name, value, into);
            } else {
                into.add(name);
            }
        }
    }

    private static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
    }

    /** Settings read by name: {@code @Value("${kopek.x}")}, {@code @Scheduled}, {@code environment.getProperty}. */
    private static Set<String> settingsNamedInSources() {
        try (Stream<Path> files = Files.walk(Path.of("src", "main", "java"))) {
            return files.filter(f -> f.toString().endsWith(".java"))
                    .flatMap(f -> {
                        try {
                            return SETTING.matcher(Files.readString(f))
                                    .results()
                                    .map(MatchResult::group);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    })
                    .collect(Collectors.toCollection(TreeSet::new));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Set<String> difference(Set<String> a, Set<String> b) {
        Set<String> rest = new TreeSet<>(a);
        rest.removeAll(b);
        return rest;
    }
}

package dev.kopek;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A module's SQL names only its own tables (issue 23): reading another module's table "on purpose" is an import the
 * module test cannot see. Another module's data is reached through its API (a method, or a {@code SqlPart} of one
 * statement that the owner writes and hands out, as the payment path's fused statements do) or through a view it
 * publishes.
 *
 * <p>Who owns what: the tables the migrations leave (CREATE, DROP and RENAME, in version order) each have an owner
 * in {@link #OWNERS}; a view belongs to the module its migration names in {@code COMMENT ON VIEW ... IS 'Published
 * by the <module> module: ...'}, and any module may read it. The SQL of a module is every string literal and text
 * block in the Java files under its package; a table name after FROM, JOIN, UPDATE, INTO, USING, TABLE or in a FROM
 * list is a use.
 */
class SqlBoundaryTest {

    private static final Path SOURCES = Path.of("src/main/java/dev/kopek");
    private static final Path MIGRATIONS = Path.of("src/main/resources/db/migration");

    /** Each table's owner: the module whose code writes it and answers for its shape. */
    static final Map<String, String> OWNERS = Map.ofEntries(
            Map.entry("admin_identities", "access"),
            Map.entry("audit_events", "audit"),
            Map.entry("disputes", "disputes"),
            Map.entry("dispute_inquiries", "disputes"),
            Map.entry("idempotency_keys", "idempotency"),
            Map.entry("invariant_cursors", "invariants"),
            Map.entry("invariant_violations", "invariants"),
            Map.entry("ledger_accounts", "ledger"),
            Map.entry("ledger_audit_sums", "ledger"),
            Map.entry("ledger_balances", "ledger"),
            Map.entry("ledger_entries", "ledger"),
            Map.entry("ledger_merchant_fees", "ledger"),
            Map.entry("ledger_projection", "ledger"),
            Map.entry("ledger_transactions", "ledger"),
            Map.entry("api_keys", "merchants"),
            Map.entry("merchants", "merchants"),
            Map.entry("psp_notifications", "notifications"),
            Map.entry("outbox", "outbox"),
            Map.entry("webhook_attempts", "outbox"),
            Map.entry("webhook_deliveries", "outbox"),
            Map.entry("webhook_endpoints", "outbox"),
            Map.entry("payment_operations", "payments"),
            Map.entry("payments", "payments"),
            Map.entry("merchant_psp", "psp"),
            Map.entry("psp_calls", "psp"),
            Map.entry("psp_references", "psp"),
            Map.entry("merchant_rate_limits", "ratelimits"),
            Map.entry("rate_limit_buckets", "ratelimits"),
            Map.entry("manual_reviews", "reconciliation"),
            Map.entry("psp_fees", "reconciliation"),
            Map.entry("recon_breaks", "reconciliation"),
            Map.entry("settlement_files", "reconciliation"),
            Map.entry("settlement_rows", "reconciliation"),
            Map.entry("settlement_runs", "reconciliation"),
            Map.entry("settlement_schedule", "reconciliation"));

    private static final Pattern VERSION = Pattern.compile("V(\\d+)__.*\\.sql");
    private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]*");
    private static final Pattern CREATE_TABLE = Pattern.compile(
            "CREATE\\s+(?:UNLOGGED\\s+)?TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?(" + NAME + ")", Pattern.CASE_INSENSITIVE);
    private static final Pattern DROP_TABLE =
            Pattern.compile("DROP\\s+TABLE\\s+(?:IF\\s+EXISTS\\s+)?(" + NAME + ")", Pattern.CASE_INSENSITIVE);
    private static final Pattern RENAME_TABLE = Pattern.compile(
            "ALTER\\s+TABLE\\s+(?:IF\\s+EXISTS\\s+)?(" + NAME + ")\\s+RENAME\\s+TO\\s+(" + NAME + ")",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern CREATE_VIEW =
            Pattern.compile("CREATE\\s+(?:OR\\s+REPLACE\\s+)?VIEW\\s+(" + NAME + ")", Pattern.CASE_INSENSITIVE);
    private static final Pattern DROP_VIEW =
            Pattern.compile("DROP\\s+VIEW\\s+(?:IF\\s+EXISTS\\s+)?(" + NAME + ")", Pattern.CASE_INSENSITIVE);
    private static final Pattern PUBLISHED = Pattern.compile(
            "COMMENT\\s+ON\\s+VIEW\\s+(" + NAME + ")\\s+IS\\s+'Published by the (" + NAME + ") module",
            Pattern.CASE_INSENSITIVE);

    private static final String ALIAS = "(?:\\s+(?:AS\\s+)?" + NAME + ")?";
    /** Keywords in capitals, as Kopek writes SQL: "from" in a sentence is not a table's use. */
    private static final Pattern USE =
            Pattern.compile("\\b(?:FROM|JOIN|UPDATE|INTO|USING|TABLE|TRUNCATE)\\s+(?:ONLY\\s+)?(" + NAME + ")" + ALIAS
                    + "((?:\\s*,\\s*" + NAME + ALIAS + ")*)");

    @Test
    void everyTableTheMigrationsLeaveHasAnOwnerThatIsAModule() {
        Schema schema = Schema.read(MIGRATIONS);

        assertThat(OWNERS.keySet())
                .as("tables the migrations leave, each with an owner here")
                .containsExactlyInAnyOrderElementsOf(schema.tables());
        Set<String> modules = modules();
        assertThat(OWNERS.values()).allSatisfy(module -> assertThat(modules).contains(module));
        assertThat(schema.views().values())
                .allSatisfy(module -> assertThat(modules).contains(module));
    }

    @Test
    void aModulesSqlNamesOnlyItsOwnTablesAndPublishedViews() {
        assertThat(violations(SOURCES, Schema.read(MIGRATIONS)))
                .as("SQL naming another module's table: use its API or a view it publishes")
                .isEmpty();
    }

    @Test
    void theRuleSeesTablesInEveryPlaceSqlNamesThem() {
        Schema schema = new Schema(Set.of("payments", "merchants", "outbox"), Map.of("published_payments", "payments"));
        String java = """
                class X {
                    // FROM payments in a comment is not SQL
                    String a = "SELECT 1 FROM payments p JOIN merchants m ON m.id = p.merchant_id";
                    String b = \"""
                            UPDATE payments SET x = 1;
                            SELECT * FROM outbox o, payments q WHERE q.id = o.id
                            \""";
                    String c = "INSERT INTO merchants (id) VALUES (1)";
                    String d = "SELECT * FROM published_payments WHERE id = :id";
                    String e = "payments and merchants in a message";
                }
                """;

        assertThat(uses(java, schema))
                .containsExactly(
                        "payments", "merchants", "payments", "outbox", "payments", "merchants", "published_payments");
        assertThat(uses("String d = \"SELECT * FROM published_payments\";", schema))
                .containsExactly("published_payments");
    }

    /** "file names table (owned by module)" for every foreign table a module's SQL names. */
    static List<String> violations(Path sources, Schema schema) {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                Path relative = sources.relativize(file);
                if (relative.getNameCount() < 2) {
                    continue; // KopekApplication: no module
                }
                String module = relative.getName(0).toString();
                for (String name : new TreeSet<>(uses(Files.readString(file), schema))) {
                    String owner = OWNERS.get(name);
                    if (owner != null && !owner.equals(module)) {
                        found.add(relative + " names " + name + " (owned by " + owner + ")");
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return found;
    }

    /** The tables and views of {@code schema} that the SQL in {@code java}'s strings names, in order. */
    static List<String> uses(String java, Schema schema) {
        List<String> names = new ArrayList<>();
        for (String sql : strings(java)) {
            Matcher use = USE.matcher(sql);
            while (use.find()) {
                List<String> listed = new ArrayList<>(List.of(use.group(1)));
                for (String more : use.group(2).split(",")) {
                    if (!more.isBlank()) {
                        listed.add(more.strip().split("\\s+")[0]);
                    }
                }
                listed.stream().filter(schema::knows).forEach(names::add);
            }
        }
        return names;
    }

    /** The contents of every string literal and text block of a Java file, skipping comments and characters. */
    static List<String> strings(String java) {
        List<String> found = new ArrayList<>();
        int i = 0;
        while (i < java.length()) {
            if (java.startsWith("//", i)) {
                i = end(java.indexOf('\n', i), java);
            } else if (java.startsWith("/*", i)) {
                i = end(java.indexOf("*/", i + 2), java) + 2;
            } else if (java.startsWith("\"\"\"", i)) {
                int close = closing(java, i + 3, "\"\"\"");
                found.add(java.substring(i + 3, close));
                i = close + 3;
            } else if (java.charAt(i) == '"') {
                int close = closing(java, i + 1, "\"");
                found.add(java.substring(i + 1, close));
                i = close + 1;
            } else if (java.charAt(i) == '\'') {
                i = closing(java, i + 1, "'") + 1;
            } else {
                i++;
            }
        }
        return found;
    }

    /** Where the unescaped {@code quote} that ends a literal begins. */
    private static int closing(String java, int from, String quote) {
        int i = from;
        while (!java.startsWith(quote, i)) {
            i += java.charAt(i) == '\\' ? 2 : 1;
        }
        return i;
    }

    private static int end(int found, String java) {
        return found < 0 ? java.length() : found;
    }

    private static Set<String> modules() {
        try (Stream<Path> entries = Files.list(SOURCES)) {
            Set<String> modules = new TreeSet<>();
            entries.filter(Files::isDirectory)
                    .forEach(d -> modules.add(d.getFileName().toString()));
            return modules;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The tables the migrations leave, and the views they publish with their owners. */
    record Schema(Set<String> tables, Map<String, String> views) {

        boolean knows(String name) {
            return tables.contains(name) || views.containsKey(name);
        }

        static Schema read(Path migrations) {
            Set<String> tables = new TreeSet<>();
            Map<String, String> views = new TreeMap<>();
            Map<String, String> published = new HashMap<>();
            for (Path migration : inVersionOrder(migrations)) {
                String sql;
                try {
                    sql = Files.readString(migration);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                apply(sql, tables, views, published);
            }
            views.replaceAll((view, none) -> published.getOrDefault(view, ""));
            assertThat(views)
                    .as("every view is published by a module (COMMENT ON VIEW ... IS 'Published by the X module: ...')")
                    .allSatisfy((view, owner) -> assertThat(owner).as(view).isNotEmpty());
            return new Schema(tables, views);
        }

        /** One migration's statements, in the order they appear. */
        private static void apply(
                String sql, Set<String> tables, Map<String, String> views, Map<String, String> published) {
            Map<Integer, Runnable> changes = new TreeMap<>();
            forEach(CREATE_TABLE, sql, (at, m) -> changes.put(at, () -> tables.add(m.group(1))));
            forEach(DROP_TABLE, sql, (at, m) -> changes.put(at, () -> tables.remove(m.group(1))));
            forEach(
                    RENAME_TABLE,
                    sql,
                    (at, m) -> changes.put(at, () -> {
                        tables.remove(m.group(1));
                        tables.add(m.group(2));
                    }));
            forEach(CREATE_VIEW, sql, (at, m) -> changes.put(at, () -> views.put(m.group(1), "")));
            forEach(DROP_VIEW, sql, (at, m) -> changes.put(at, () -> views.remove(m.group(1))));
            forEach(PUBLISHED, sql, (at, m) -> changes.put(at, () -> published.put(m.group(1), m.group(2))));
            changes.values().forEach(Runnable::run);
        }

        private static void forEach(Pattern pattern, String sql, BiConsumer<Integer, MatchResult> found) {
            Matcher m = pattern.matcher(COMMENT_SQL.matcher(sql).replaceAll(""));
            while (m.find()) {
                found.accept(m.start(), m.toMatchResult());
            }
        }

        private static List<Path> inVersionOrder(Path migrations) {
            try (Stream<Path> files = Files.list(migrations)) {
                Map<Integer, Path> byVersion = new LinkedHashMap<>();
                files.filter(f -> VERSION.matcher(f.getFileName().toString()).matches())
                        .sorted(Comparator.comparingInt(SqlBoundaryTest::version))
                        .forEach(f -> byVersion.put(version(f), f));
                return List.copyOf(byVersion.values());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static final Pattern COMMENT_SQL = Pattern.compile("--[^\\n]*");

    private static int version(Path migration) {
        Matcher m = VERSION.matcher(migration.getFileName().toString());
        if (!m.matches()) {
            throw new IllegalArgumentException(migration.toString());
        }
        return Integer.parseInt(m.group(1));
    }
}

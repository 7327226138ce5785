package dev.kopek.platform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Migrations;
import dev.kopek.support.TestDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * docs/sharding.md is the one place that says where each table goes when Kopek is sharded by merchant on Citus,
 * and this test keeps it true of the schema every migration leaves: every table is classified (distributed by a
 * merchant column, reference or local, with a reason), no classified table is gone, and a distributed table's
 * distribution column is present and NOT NULL and in its primary key and every unique constraint or index — or the
 * page's Exceptions table says why not and what it becomes under Citus. Citus refuses exactly those, so a new
 * table or a new unique index fails here, in the build, instead of on the day Kopek moves to more than one primary.
 */
class ShardingClassificationTest {

    private static final Path PAGE = Path.of("..", "docs", "sharding.md");
    private static final String WHERE = "docs/sharding.md";
    private static final Set<String> CLASSES = Set.of("distributed", "reference", "local");

    private static JdbcClient jdbc;

    record Row(String table, String kind, String column, String reason) {}

    @BeforeAll
    static void migrate() {
        DriverManagerDataSource source = new DriverManagerDataSource(TestDatabase.newDatabase(), "postgres", "");
        // Flyway as Kopek configures it: V170 builds an index CONCURRENTLY, which waits for ever on Flyway's default
        // lock held in an open transaction.
        Migrations.flyway(source).migrate();
        jdbc = JdbcClient.create(source);
    }

    @Test
    void everyTableIsClassifiedAndEveryClassifiedTableExists() {
        Set<String> tables = new TreeSet<>(jdbc.sql("""
                        SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                         WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
                        """).query(String.class).list());
        Set<String> classified = classification().keySet();

        assertThat(tables).as("tables after all migrations").contains("payments", "idempotency_keys");
        assertThat(difference(tables, classified))
                .as(
                        "tables nobody classified: add a row to the table under '## Classification' in %s (class"
                                + " distributed with its merchant column, reference or local, and the reason)",
                        WHERE)
                .isEmpty();
        assertThat(difference(classified, tables))
                .as("rows under '## Classification' in %s for tables no migration leaves", WHERE)
                .isEmpty();
    }

    @Test
    void everyRowHasAKnownClassAndAReason() {
        for (Row row : classification().values()) {
            assertThat(row.kind()).as("class of %s in %s", row.table(), WHERE).isIn(CLASSES);
            assertThat(row.reason())
                    .as("reason for %s in %s", row.table(), WHERE)
                    .isNotBlank();
            if (row.kind().equals("distributed")) {
                assertThat(row.column())
                        .as("distribution column of %s in %s", row.table(), WHERE)
                        .isNotBlank();
            } else {
                assertThat(row.column())
                        .as("%s is %s: it has no distribution column", row.table(), row.kind())
                        .isEmpty();
            }
        }
    }

    @Test
    void distributedTablesKeepTheirColumnInEveryUniqueKeyOrSayWhyNot() {
        Set<String> violations = new TreeSet<>();
        for (Row row : classification().values()) {
            if (row.kind().equals("distributed")) {
                violations.addAll(violations(row));
            }
        }
        Set<String> excepted = exceptions();

        assertThat(difference(violations, excepted))
                .as(
                        "what Citus would refuse in a table distributed by merchant (table: constraint, or table:"
                                + " column when it is missing or nullable); change the schema, or add the row under"
                                + " '## Exceptions' in %s with the reason and what it becomes under Citus",
                        WHERE)
                .isEmpty();
        assertThat(difference(excepted, violations))
                .as("rows under '## Exceptions' in %s that no longer excuse anything", WHERE)
                .isEmpty();
    }

    /** {@code table: constraint} for each unique index without the column, {@code table: column} when it is absent. */
    private static List<String> violations(Row row) {
        List<String> found = new ArrayList<>();
        Boolean notNull = jdbc.sql("""
                        SELECT attnotnull FROM pg_attribute
                         WHERE attrelid = to_regclass(:table) AND attname = :column AND NOT attisdropped
                        """)
                .param("table", row.table())
                .param("column", row.column())
                .query(Boolean.class)
                .optional()
                .orElse(false);
        if (!notNull) {
            found.add(row.table() + ": " + row.column());
        }
        jdbc.sql("""
                        SELECT i.relname FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
                         WHERE x.indrelid = to_regclass(:table) AND x.indisunique
                           AND NOT EXISTS (SELECT 1 FROM pg_attribute a
                                            WHERE a.attrelid = x.indrelid AND a.attname = :column
                                              AND a.attnum = ANY (x.indkey))
                        """)
                .param("table", row.table())
                .param("column", row.column())
                .query(String.class)
                .list()
                .forEach(index -> found.add(row.table() + ": " + index));
        return found;
    }

    private static Map<String, Row> classification() {
        Map<String, Row> rows = new TreeMap<>();
        for (List<String> cells : tableUnder("## Classification", 4)) {
            Row row = new Row(cells.get(0), cells.get(1), cells.get(2), cells.get(3));
            assertThat(rows.put(row.table(), row))
                    .as("%s is classified twice in %s", row.table(), WHERE)
                    .isNull();
        }
        assertThat(rows).as("rows under '## Classification' in %s", WHERE).isNotEmpty();
        return rows;
    }

    private static Set<String> exceptions() {
        Set<String> excepted = new TreeSet<>();
        for (List<String> cells : tableUnder("## Exceptions", 4)) {
            assertThat(cells.get(2))
                    .as("why %s: %s", cells.get(0), cells.get(1))
                    .isNotBlank();
            assertThat(cells.get(3))
                    .as("what %s: %s becomes", cells.get(0), cells.get(1))
                    .isNotBlank();
            excepted.add(cells.get(0) + ": " + cells.get(1));
        }
        return excepted;
    }

    /** The cells of each body row of the first Markdown table under a heading, code quotes taken off. */
    private static List<List<String>> tableUnder(String heading, int columns) {
        List<String> lines = page();
        int start = lines.indexOf(heading);
        assertThat(start).as("%s has a section '%s'", WHERE, heading).isNotNegative();
        List<List<String>> rows = new ArrayList<>();
        for (String line : lines.subList(start + 1, lines.size())) {
            if (line.startsWith("#")) {
                break;
            }
            if (!line.startsWith("|") || line.startsWith("|---") || line.startsWith("| table ")) {
                continue;
            }
            String[] parts = line.split("\\|", -1);
            assertThat(parts.length - 2).as("cells in '%s'", line).isEqualTo(columns);
            List<String> cells = new ArrayList<>();
            for (int i = 1; i <= columns; i++) {
                cells.add(parts[i].strip().replace("`", ""));
            }
            rows.add(cells);
        }
        return rows;
    }

    private static List<String> page() {
        try {
            return Files.readAllLines(PAGE);
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

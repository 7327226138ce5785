package dev.kopek.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Promtool;
import dev.kopek.support.Promtool.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The alert rules are checked by Prometheus's own promtool (Debian's prometheus package): the rule file parses as
 * Prometheus parses it, and ops/prometheus/alerts.test.yml, whose series are labelled as real scrapes are, shows
 * each alert firing. A rule whose two sides keep different labels (an {@code and} that never matches) fails there.
 * Without promtool the test is skipped loudly on a developer's machine and fails in CI (CI=true), where .ci/run
 * installs it.
 */
class AlertRulesPromtoolTest {

    @BeforeEach
    void promtoolIsThere() {
        Promtool.required("AlertRulesPromtoolTest");
    }

    @Test
    void promtoolAcceptsTheRuleFile() throws Exception {
        Result checked = promtool("check", "rules", "alerts.yml");
        assertThat(checked.exit()).as(checked.output()).isZero();
        assertThat(checked.output()).contains("SUCCESS: " + alerts().size() + " rules found");
    }

    @Test
    void everyAlertFiresInItsUnitTest() throws Exception {
        Result tested = promtool("test", "rules", "alerts.test.yml");
        assertThat(tested.exit()).as(tested.output()).isZero();
        assertThat(tested.output()).contains("SUCCESS").doesNotContain("FAILED");
        assertThat(firingCases())
                .as("an alert without a case where it fires is not tested")
                .containsAll(alerts());
    }

    private static Set<String> alerts() throws IOException {
        Set<String> names = new TreeSet<>();
        for (Map<String, Object> group : list(yaml("alerts.yml").get("groups"))) {
            for (Map<String, Object> rule : list(group.get("rules"))) {
                names.add((String) rule.get("alert"));
            }
        }
        return names;
    }

    /** The alerts that some case of alerts.test.yml expects to fire (a non-empty exp_alerts). */
    private static Set<String> firingCases() throws IOException {
        Set<String> firing = new TreeSet<>();
        for (Map<String, Object> test : list(yaml("alerts.test.yml").get("tests"))) {
            for (Map<String, Object> check : list(test.get("alert_rule_test"))) {
                if (!list(check.get("exp_alerts")).isEmpty()) {
                    firing.add((String) check.get("alertname"));
                }
            }
        }
        return firing;
    }

    private static Result promtool(String... args) throws IOException, InterruptedException {
        return Promtool.run(args);
    }

    private static Map<String, Object> yaml(String file) throws IOException {
        return new Yaml().load(Files.readString(Promtool.RULES.resolve(file)));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Object value) {
        assertThat(value).isInstanceOf(List.class);
        return (List<Map<String, Object>>) value;
    }
}

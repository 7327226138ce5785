package dev.kopek;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.kopek.platform.ReadReplica;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.modulith.core.ApplicationModules;

/** The shape STYLE.md asks for, checked rather than hoped for. */
class ArchitectureTest {

    private static final JavaClasses KOPEK = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.kopek");

    @Test
    void modulesRespectTheirBoundaries() {
        ApplicationModules.of(KopekApplication.class).verify();
    }

    @Test
    void timeComesOnlyFromTheInjectedClock() {
        ArchRule rule = noClasses()
                .should()
                .callMethod(Instant.class, "now")
                .orShould()
                .callMethod(LocalDateTime.class, "now")
                .orShould()
                .callMethod(LocalDate.class, "now")
                .orShould()
                .callMethod(OffsetDateTime.class, "now")
                .orShould()
                .callMethod(ZonedDateTime.class, "now")
                .orShould()
                .callMethod(System.class, "currentTimeMillis")
                .because("tests move an injected Clock instead of sleeping");
        rule.check(KOPEK);
    }

    @Test
    void domainLogicIsFreeOfSpringAndJdbc() {
        noClasses()
                .that()
                .resideInAPackage("..domain..")
                .and()
                .doNotHaveSimpleName("package-info")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.springframework..", "java.sql..", "tools.jackson..", "jakarta..")
                .check(KOPEK);
    }

    /**
     * The read replica is for the named read models alone (docs/read-replicas.md): the key store, the fences and
     * every write path read and write the primary, so a retry can never be decided on a replica that has not seen
     * the first answer (seed 000). A class that needs the replica is added here by name, with its reason in that
     * page; in those modules only such a named read model (a history page, the event feed, the audit's slices).
     */
    private static final Set<String> READ_MODELS = Set.of(
            "dev.kopek.platform.ReadReplica",
            "dev.kopek.platform.ReadReplicaConfiguration",
            "dev.kopek.console.ConsoleQueries",
            "dev.kopek.console.HealthQueries",
            "dev.kopek.console.web.ConsoleModel",
            "dev.kopek.invariants.InvariantAuditor",
            "dev.kopek.ledger.jdbc.LedgerHistoryStores",
            "dev.kopek.outbox.store.EventFeed",
            "dev.kopek.reconciliation.settlement.BreakFinder");

    private static final DescribedPredicate<JavaClass> NOT_READ_MODELS = DescribedPredicate.describe(
            "are not named read models", (JavaClass c) -> !READ_MODELS.contains(c.getName()));

    @Test
    void onlyNamedReadModelsReadTheReplica() {
        noClasses()
                .that(NOT_READ_MODELS)
                .should()
                .dependOnClassesThat()
                .areAssignableTo(ReadReplica.class)
                .check(KOPEK);
        noClasses()
                .that()
                .resideInAnyPackage(
                        "dev.kopek.idempotency..",
                        "dev.kopek.payments..",
                        "dev.kopek.refunds..",
                        "dev.kopek.ledger..",
                        "dev.kopek.outbox..",
                        "dev.kopek.disputes..",
                        "dev.kopek.notifications..")
                .and(NOT_READ_MODELS)
                .should()
                .dependOnClassesThat()
                .areAssignableTo(ReadReplica.class)
                .because("keys, fences and writes are decided on the primary (seed 000)")
                .check(KOPEK);
    }

    @Test
    void webLayerNeverTouchesSqlDirectly() {
        noClasses()
                .that()
                .resideInAPackage("..web..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.springframework.jdbc..", "java.sql..")
                .check(KOPEK);
    }
}

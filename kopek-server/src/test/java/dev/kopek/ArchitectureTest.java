package dev.kopek;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
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

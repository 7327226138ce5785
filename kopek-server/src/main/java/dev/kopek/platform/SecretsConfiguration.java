package dev.kopek.platform;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@link SecretBox}: {@code KOPEK_SECRETS_KEY} (base64, 32 bytes) seals, {@code KOPEK_SECRETS_OLD_KEYS}
 * (comma-separated) only open. Without a key, the demo stays zero-configuration: a key is generated once into
 * {@code <data dir>/secrets.key} (owner read/write only), so a restart opens what the last run sealed. That file is
 * as sensitive as the key itself; production mode refuses to start without {@code KOPEK_SECRETS_KEY}.
 */
@Configuration(proxyBeanMethods = false)
class SecretsConfiguration {

    static final String KEY_FILE = "secrets.key";
    private static final Logger log = LoggerFactory.getLogger(SecretsConfiguration.class);
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    @Bean
    SecretBox secretBox(
            @Value("${kopek.secrets-key:}") String key,
            @Value("${kopek.secrets-old-keys:}") String old,
            @Value("${kopek.data-dir:.kopek}") String dataDir,
            DatabaseProperties database) {
        List<byte[]> retired = Arrays.stream(old.split(","))
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .map(s -> SecretBox.decodeKey(s, "KOPEK_SECRETS_OLD_KEYS"))
                .toList();
        if (!key.isBlank()) {
            return new SecretBox(SecretBox.decodeKey(key, "KOPEK_SECRETS_KEY"), retired);
        }
        if (database.external()) {
            log.warn(
                    "KOPEK_SECRETS_KEY is not set: webhook secrets are sealed with a key kept in {}; every instance "
                            + "sharing this database needs the same key, so set KOPEK_SECRETS_KEY",
                    dataDir);
        }
        return new SecretBox(demoKey(Path.of(dataDir).resolve(KEY_FILE)), retired);
    }

    /**
     * Reads the demo key, or creates it: written to an owner-only temporary file and linked into place atomically,
     * so a second instance on the same folder never reads a half-written key, and the first key wins.
     */
    static byte[] demoKey(Path file) {
        try {
            if (!Files.exists(file)) {
                Path folder = file.toAbsolutePath().getParent();
                Files.createDirectories(folder);
                Path temporary = Files.createTempFile(
                        folder, KEY_FILE, ".new", PosixFilePermissions.asFileAttribute(OWNER_ONLY));
                Files.writeString(
                        temporary,
                        Base64.getEncoder().encodeToString(SecretBox.newKey()) + "\n",
                        StandardCharsets.US_ASCII);
                try {
                    // A hard link fails when the name exists, where a rename would silently replace it.
                    Files.createLink(file, temporary);
                    log.info(
                            "generated a secrets key for this data folder: {} (set KOPEK_SECRETS_KEY outside the "
                                    + "demo)",
                            file.toAbsolutePath());
                } catch (FileAlreadyExistsException raced) {
                    // another instance on this folder was first; its key is the one
                } finally {
                    Files.deleteIfExists(temporary);
                }
            }
            return SecretBox.decodeKey(Files.readString(file, StandardCharsets.US_ASCII), file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or create the secrets key file " + file, e);
        }
    }
}

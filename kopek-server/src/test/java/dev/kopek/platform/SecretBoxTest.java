package dev.kopek.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecretBoxTest {

    private static final byte[] OLD = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NEW = "fedcba9876543210fedcba9876543210".getBytes(StandardCharsets.US_ASCII);

    @Test
    void aSealedSecretOpensOnlyOnItsOwnRowAndNeverContainsTheClearText() {
        SecretBox box = new SecretBox(NEW, List.of());
        SecretBox.Sealed sealed = box.seal("whsec_abcdef", "row-1");

        assertThat(sealed.keyId()).isEqualTo(SecretBox.keyId(NEW)).hasSize(16);
        assertThat(new String(sealed.bytes(), StandardCharsets.ISO_8859_1)).doesNotContain("whsec_abcdef");
        assertThat(box.open(sealed, "row-1")).isEqualTo("whsec_abcdef");
        assertThat(box.seal("whsec_abcdef", "row-1").bytes())
                .as("a fresh nonce each time")
                .isNotEqualTo(sealed.bytes());
        assertThatThrownBy(() -> box.open(sealed, "row-2"))
                .as("copied onto another row")
                .isInstanceOf(IllegalStateException.class);
        byte[] altered = sealed.bytes().clone();
        altered[altered.length - 1] ^= 1;
        assertThatThrownBy(() -> box.open(new SecretBox.Sealed(sealed.keyId(), altered), "row-1"))
                .isInstanceOf(IllegalStateException.class);
        assertThat(sealed.toString()).doesNotContain("whsec");
    }

    @Test
    void afterRotationOldValuesStillOpenAndNewOnesUseTheNewKey() {
        SecretBox.Sealed old = new SecretBox(OLD, List.of()).seal("whsec_old", "row");
        SecretBox rotated = new SecretBox(NEW, List.of(OLD));

        assertThat(rotated.open(old, "row")).isEqualTo("whsec_old");
        assertThat(rotated.seal("whsec_new", "row").keyId()).isEqualTo(SecretBox.keyId(NEW));
        assertThat(rotated.keyIds()).containsExactlyInAnyOrder(SecretBox.keyId(NEW), SecretBox.keyId(OLD));
        assertThatThrownBy(() -> new SecretBox(NEW, List.of()).open(old, "row"))
                .as("old key dropped too early")
                .hasMessageContaining("KOPEK_SECRETS_OLD_KEYS");
    }

    @Test
    void aKeyMustBeBase64Of32Bytes() {
        assertThatThrownBy(() -> SecretBox.decodeKey("not base64!", "KOPEK_SECRETS_KEY"))
                .hasMessageContaining("KOPEK_SECRETS_KEY must be base64");
        assertThatThrownBy(() -> SecretBox.decodeKey("c2hvcnQ=", "KOPEK_SECRETS_KEY"))
                .hasMessageContaining("32 bytes");
    }

    @Test
    void theDemoKeyIsCreatedOnceOwnerOnlyAndReadBackAfterARestart(@TempDir Path dataDir) throws Exception {
        Path file = dataDir.resolve("nested").resolve(SecretsConfiguration.KEY_FILE);
        byte[] first = SecretsConfiguration.demoKey(file);
        byte[] again = SecretsConfiguration.demoKey(file);

        assertThat(first).hasSize(32).isEqualTo(again);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        try (var leftovers = Files.list(file.getParent())) {
            assertThat(leftovers).as("no temporary file left behind").containsExactly(file);
        }
    }
}

package dev.kopek.console;

import dev.kopek.merchants.Secrets;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Turns an admin token typed into the login form into an admin identity. The one place the console asks "who is
 * this?": today the single {@code KOPEK_ADMIN_TOKEN} (identity {@code admin}); named admin identities replace it
 * here without touching the console.
 */
@Component
public class ConsoleAuthenticator {

    private static final int MAX_TOKEN = 512;

    private final String adminToken;

    ConsoleAuthenticator(@Value("${kopek.admin-token:}") String adminToken) {
        this.adminToken = adminToken;
    }

    public boolean enabled() {
        return adminToken != null && !adminToken.isBlank();
    }

    public Optional<String> authenticate(String token) {
        if (!enabled() || token == null || token.isEmpty() || token.length() > MAX_TOKEN) {
            return Optional.empty();
        }
        return Secrets.constantTimeEquals(token, adminToken) ? Optional.of("admin") : Optional.empty();
    }
}

package dev.kopek.access.web;

import dev.kopek.access.AdminIdentities;
import dev.kopek.access.AdminTokens;
import dev.kopek.merchants.Merchants;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * Turns a bearer token into a {@link Caller}: the bootstrap admin token ({@code KOPEK_ADMIN_TOKEN}), a named admin
 * identity ({@code kad_…}), or a merchant's API key.
 */
@Component
class Callers {

    private final Merchants merchants;
    private final AdminTokens admins;

    Callers(Merchants merchants, AdminTokens admins) {
        this.merchants = merchants;
        this.admins = admins;
    }

    Optional<Caller> identify(String token) {
        Optional<AdminTokens.Admin> admin = admins.authenticate(token);
        if (admin.isPresent()) {
            return Optional.of(new Caller.Admin(admin.get().id(), admin.get().name()));
        }
        if (token.startsWith(AdminIdentities.TOKEN_PREFIX)) {
            return Optional.empty();
        }
        return merchants.authenticate(token).map(Caller.Merchant::new);
    }
}

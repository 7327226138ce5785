package dev.kopek.access.web;

import dev.kopek.access.AdminIdentities;
import dev.kopek.access.AdminTokens;
import dev.kopek.merchants.Merchants;
import dev.kopek.platform.ConnectionWait;
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
    private final ConnectionWait connectionWait;

    Callers(Merchants merchants, AdminTokens admins, ConnectionWait connectionWait) {
        this.merchants = merchants;
        this.admins = admins;
        this.connectionWait = connectionWait;
    }

    /**
     * The caller a token belongs to. For a write (which may be a payment) a lookup that finds no free connection
     * waits like the payment's own transactions ({@link ConnectionWait}): when the verified-key cache expires under
     * thousands of requests in flight, they all look their key up at once, and a 503 there would be the only thing
     * failing for want of a connection. A read still answers 503 after the pool's timeout.
     */
    Optional<Caller> identify(String token, boolean write) {
        return write ? connectionWait.patiently(() -> identify(token)) : identify(token);
    }

    private Optional<Caller> identify(String token) {
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

package dev.kopek.access;

import dev.kopek.merchants.MerchantsProperties;
import dev.kopek.merchants.Secrets;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * The one place that says which admin a token belongs to: {@code KOPEK_ADMIN_TOKEN} (the bootstrap identity) or a
 * live named identity ({@code kad_…}). The bearer filter uses it; so can anything else that takes an admin token
 * (the operator console's login form).
 */
@Component
public class AdminTokens {

    public static final String BOOTSTRAP_ID = "adm_bootstrap";
    public static final String BOOTSTRAP_NAME = "bootstrap";

    private final MerchantsProperties properties;
    private final AdminIdentities identities;

    /**
     * The bootstrap token's digest, taken once: every bearer of every request is compared with it, and digesting
     * the configured token again each time was a third of the SHA-256 work a merchant's request did.
     */
    private final byte[] bootstrapDigest;

    AdminTokens(MerchantsProperties properties, AdminIdentities identities) {
        this.properties = properties;
        this.identities = identities;
        this.bootstrapDigest = properties.adminEnabled()
                ? Secrets.sha256(properties.adminToken().getBytes(StandardCharsets.UTF_8))
                : null;
    }

    /** An authenticated admin: {@code adm_…} id and name. */
    public record Admin(String id, String name) {}

    public Optional<Admin> authenticate(String token) {
        if (token == null || token.isEmpty()) {
            return Optional.empty();
        }
        if (bootstrapDigest != null && Secrets.matchesDigest(token, bootstrapDigest)) {
            return Optional.of(new Admin(BOOTSTRAP_ID, BOOTSTRAP_NAME));
        }
        return identities.authenticate(token).map(identity -> new Admin(identity.publicId(), identity.name()));
    }

    /**
     * Whether an identity that authenticated earlier (a console session) may still act: the bootstrap identity
     * while {@code KOPEK_ADMIN_TOKEN} is set, a named one until it is revoked. Asked on every request, no cache.
     */
    public boolean isLive(Admin admin) {
        if (BOOTSTRAP_ID.equals(admin.id())) {
            return properties.adminEnabled();
        }
        return dev.kopek.money.PrefixedId.parse("adm", admin.id())
                .flatMap(identities::find)
                .filter(identity -> identity.revokedAt() == null)
                .isPresent();
    }

    public boolean bootstrapEnabled() {
        return properties.adminEnabled();
    }
}

package dev.kopek.access;

import dev.kopek.audit.Actor;
import dev.kopek.audit.AuditTrail;
import dev.kopek.merchants.Secrets;
import dev.kopek.money.PrefixedId;
import dev.kopek.money.TimeOrderedIds;
import dev.kopek.platform.Db;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * Named admin identities. A token ({@code kad_…}) is shown once, when issued, and stored as its SHA-256 digest;
 * revoking one takes effect on the next request (no cache). Issuing and revoking are audited in their transaction.
 */
@Service
public class AdminIdentities {

    public static final String TOKEN_PREFIX = "kad_";

    private final JdbcClient jdbc;
    private final Clock clock;
    private final AuditTrail audit;

    AdminIdentities(JdbcClient jdbc, Clock clock, AuditTrail audit) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.audit = audit;
    }

    public record Identity(
            UUID id,
            String name,
            String tokenPrefix,
            Instant createdAt,
            String createdBy,
            Instant revokedAt,
            String revokedBy) {

        public String publicId() {
            return PrefixedId.format("adm", id);
        }
    }

    public sealed interface Issued {
        record Done(Identity identity, String token) implements Issued {}

        record NameTaken() implements Issued {}
    }

    /** The live identity a token belongs to. */
    public Optional<Identity> authenticate(String token) {
        if (!token.startsWith(TOKEN_PREFIX)) {
            return Optional.empty();
        }
        return jdbc.sql("SELECT * FROM admin_identities WHERE token_hash = :hash AND revoked_at IS NULL")
                .param("hash", Secrets.sha256Hex(token))
                .query(AdminIdentities::map)
                .optional();
    }

    public Issued issue(Actor by, String name) {
        String token = Secrets.newSecret(TOKEN_PREFIX);
        UUID id = TimeOrderedIds.next(clock);
        try {
            return audit.inTransaction(status -> {
                jdbc.sql("""
                        INSERT INTO admin_identities (id, name, token_hash, token_prefix, created_at, created_by)
                        VALUES (:id, :name, :hash, :prefix, :now, :by)
                        """)
                        .param("id", id)
                        .param("name", name)
                        .param("hash", Secrets.sha256Hex(token))
                        .param("prefix", token.substring(0, 12))
                        .param("now", Db.at(clock.instant()))
                        .param("by", by.id())
                        .update();
                Identity issued = find(id).orElseThrow();
                audit.record(by, "admin_identity.issued", "admin_identity", issued.publicId(), null, summary(issued));
                return new Issued.Done(issued, token);
            });
        } catch (DuplicateKeyException e) {
            return new Issued.NameTaken();
        }
    }

    /** Revokes an identity; revoking a revoked one changes and records nothing. Empty when it does not exist. */
    public Optional<Identity> revoke(Actor by, UUID id) {
        return audit.inTransaction(status -> {
            Optional<Identity> before = jdbc.sql("SELECT * FROM admin_identities WHERE id = :id FOR UPDATE")
                    .param("id", id)
                    .query(AdminIdentities::map)
                    .optional();
            if (before.isEmpty() || before.get().revokedAt() != null) {
                return before;
            }
            jdbc.sql("UPDATE admin_identities SET revoked_at = :now, revoked_by = :by WHERE id = :id")
                    .param("now", Db.at(clock.instant()))
                    .param("by", by.id())
                    .param("id", id)
                    .update();
            Identity after = find(id).orElseThrow();
            audit.record(
                    by,
                    "admin_identity.revoked",
                    "admin_identity",
                    after.publicId(),
                    summary(before.get()),
                    summary(after));
            return Optional.of(after);
        });
    }

    public List<Identity> list() {
        return jdbc.sql("SELECT * FROM admin_identities ORDER BY created_at, id")
                .query(AdminIdentities::map)
                .list();
    }

    public Optional<Identity> find(UUID id) {
        return jdbc.sql("SELECT * FROM admin_identities WHERE id = :id")
                .param("id", id)
                .query(AdminIdentities::map)
                .optional();
    }

    private static Map<String, Object> summary(Identity identity) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("name", identity.name());
        json.put("token_prefix", identity.tokenPrefix());
        json.put(
                "revoked_at",
                identity.revokedAt() == null ? null : identity.revokedAt().toString());
        return json;
    }

    private static Identity map(java.sql.ResultSet rs, int row) throws java.sql.SQLException {
        return new Identity(
                rs.getObject("id", UUID.class),
                rs.getString("name"),
                rs.getString("token_prefix"),
                Db.instant(rs, "created_at"),
                rs.getString("created_by"),
                Db.instant(rs, "revoked_at"),
                rs.getString("revoked_by"));
    }
}

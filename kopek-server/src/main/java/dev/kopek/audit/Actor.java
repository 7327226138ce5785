package dev.kopek.audit;

import dev.kopek.money.MerchantId;
import java.util.Objects;

/**
 * Who did something, as authentication established it, never as a request body claims it. Admin and merchant
 * handlers receive one as a parameter (like {@code MerchantId}); it carries the request id and client address the
 * audit trail records with every event.
 *
 * @param kind admin identity, merchant (its API key), or Kopek itself (a scheduled job)
 * @param id stable id: {@code adm_…} for an admin identity ({@code adm_bootstrap} for {@code KOPEK_ADMIN_TOKEN}),
 *     {@code mer_…} for a merchant, {@code system:<job>} for Kopek
 * @param name the admin identity's name, the merchant's id, or the job's name
 * @param requestId the request's id ({@code X-Request-Id}); null for a scheduled job
 * @param clientIp the client's address as the server saw it; null for a scheduled job
 */
public record Actor(Kind kind, String id, String name, String requestId, String clientIp) {

    public static final int MAX_NAME = 100;

    public enum Kind {
        ADMIN,
        MERCHANT,
        SYSTEM
    }

    public Actor {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
    }

    public static Actor merchant(MerchantId merchant, String requestId, String clientIp) {
        return new Actor(Kind.MERCHANT, merchant.toString(), merchant.toString(), requestId, clientIp);
    }

    /** Kopek itself, for work no person asked for (the daily settlement run). */
    public static Actor system(String job) {
        return new Actor(Kind.SYSTEM, "system:" + job, job, null, null);
    }
}

package dev.kopek.psp.web;

import dev.kopek.audit.Actor;
import dev.kopek.audit.AuditTrail;
import dev.kopek.merchants.Merchants;
import dev.kopek.money.MerchantId;
import dev.kopek.platform.ApiProblem;
import dev.kopek.platform.Audience;
import dev.kopek.platform.JsonBodies;
import dev.kopek.platform.ProblemCode;
import dev.kopek.platform.ProblemCodes;
import dev.kopek.psp.MerchantPsp;
import dev.kopek.psp.MerchantPspStore;
import dev.kopek.psp.PaymentProviders;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code /v1/admin/merchants/{id}/psp}: which PSP a merchant's payments go to and its credentials there, sealed at
 * rest and never answered, logged or audited in clear. A change is audited ({@code merchant_psp.changed}). Once the
 * merchant has payments its PSP is fixed (they live there); its credentials may still rotate.
 */
@RestController
@Audience(Audience.Kind.ADMIN)
class MerchantPspController {

    private static final Set<String> FIELDS = Set.of("provider", "secret_key", "webhook_secrets");
    private static final Set<String> PROVIDERS = Set.of("simulator", "stripe");
    private static final int MAX_BODY_BYTES = 8192;
    private static final int MAX_WEBHOOK_SECRETS = 5;
    private static final Pattern SECRET_KEY = Pattern.compile("(sk|rk)_[A-Za-z0-9_]{4,250}");
    private static final Pattern WEBHOOK_SECRET = Pattern.compile("whsec_[A-Za-z0-9+/=_]{4,249}");

    private final Merchants merchants;
    private final MerchantPspStore store;
    private final PaymentProviders psps;
    private final AuditTrail audit;
    private final Clock clock;

    MerchantPspController(
            Merchants merchants, MerchantPspStore store, PaymentProviders psps, AuditTrail audit, Clock clock) {
        this.merchants = merchants;
        this.store = store;
        this.psps = psps;
        this.audit = audit;
        this.clock = clock;
    }

    @GetMapping("/v1/admin/merchants/{merchantId}/psp")
    Map<String, Object> get(@PathVariable String merchantId) {
        MerchantId merchant = merchant(merchantId);
        return json(merchant, store.find(merchant));
    }

    @PutMapping("/v1/admin/merchants/{merchantId}/psp")
    @ProblemCodes(
            jsonBody = true,
            value = {
                ProblemCode.INVALID_PROVIDER,
                ProblemCode.INVALID_SECRET_KEY,
                ProblemCode.INVALID_WEBHOOK_SECRETS,
                ProblemCode.PSP_NOT_AVAILABLE,
                ProblemCode.PSP_CHANGE_REFUSED
            })
    Map<String, Object> put(Actor actor, @PathVariable String merchantId, HttpServletRequest http) {
        MerchantId merchant = merchant(merchantId);
        ObjectNode body = JsonBodies.readObject(http, MAX_BODY_BYTES);
        body.propertyNames().stream()
                .filter(n -> !FIELDS.contains(n))
                .findFirst()
                .ifPresent(n -> {
                    throw ApiProblem.badRequest("unknown_field", n, "Unknown field '" + n + "'.");
                });
        String provider = provider(body);
        MerchantPsp.Credentials credentials = provider.equals("stripe") ? stripeCredentials(body) : noCredentials(body);
        if (!psps.available(provider)) {
            throw ApiProblem.of(
                    HttpStatus.UNPROCESSABLE_CONTENT,
                    "psp_not_available",
                    "This Kopek does not run " + provider + " (KOPEK_PSP_PROVIDER="
                            + psps.configured().name() + "); nothing was changed.");
        }
        Map<String, Object> answer = audit.inTransaction(status -> {
            // Waits for every payment whose first transaction holds the merchant's row, and holds back new ones
            // until this commits: the payments check below then sees each payment that did not see this change.
            store.lockMerchant(merchant);
            Optional<MerchantPsp> before = store.find(merchant);
            String current = account(
                    before.map(MerchantPsp::provider).orElse(psps.configured().name()),
                    before.map(MerchantPsp::credentials).orElse(MerchantPsp.Credentials.NONE));
            String next = account(provider, credentials);
            if (!current.equals(next) && store.hasPayments(merchant)) {
                throw ApiProblem.of(
                        HttpStatus.CONFLICT,
                        "psp_change_refused",
                        "The merchant has payments at " + current + "; its PSP cannot change to " + next
                                + ". Nothing was changed.");
            }
            MerchantPsp after = store.save(merchant, provider, credentials, clock.instant());
            Map<String, Object> json = json(merchant, Optional.of(after));
            audit.record(
                    actor,
                    "merchant_psp.changed",
                    "merchant",
                    merchant.toString(),
                    before.isPresent() ? json(merchant, before) : null,
                    json);
            return json;
        });
        psps.forget(merchant);
        return answer;
    }

    /**
     * The account a merchant's payments go through, as an admin reads it: Kopek's configured PSP, or the merchant's
     * own account at a PSP. Credentials may rotate within one account; the account may not change under payments.
     */
    private String account(String provider, MerchantPsp.Credentials credentials) {
        return credentials.secretKey().isEmpty()
                ? "Kopek's " + psps.configured().name() + " account"
                : "the merchant's own " + provider + " account";
    }

    private static String provider(ObjectNode body) {
        JsonNode provider = body.get("provider");
        if (provider == null || !provider.isString() || !PROVIDERS.contains(provider.stringValue())) {
            throw ApiProblem.badRequest("invalid_provider", "provider", "provider is simulator or stripe.");
        }
        return provider.stringValue();
    }

    private static MerchantPsp.Credentials stripeCredentials(ObjectNode body) {
        JsonNode key = body.get("secret_key");
        if (key == null
                || !key.isString()
                || !SECRET_KEY.matcher(key.stringValue()).matches()) {
            throw ApiProblem.badRequest(
                    "invalid_secret_key",
                    "secret_key",
                    "secret_key is the merchant's Stripe "
                            + "secret or restricted key: sk_… or rk_…, letters, digits and _, at most 255 characters.");
        }
        JsonNode secrets = body.get("webhook_secrets");
        if (secrets == null || !secrets.isArray() || secrets.isEmpty() || secrets.size() > MAX_WEBHOOK_SECRETS) {
            throw ApiProblem.badRequest(
                    "invalid_webhook_secrets",
                    "webhook_secrets",
                    "webhook_secrets is a list of"
                            + " 1–5 signing secrets (whsec_…) of the merchant's Stripe webhook endpoint.");
        }
        List<String> list = new ArrayList<>();
        for (JsonNode secret : secrets) {
            if (!secret.isString()
                    || !WEBHOOK_SECRET.matcher(secret.stringValue()).matches()) {
                throw ApiProblem.badRequest(
                        "invalid_webhook_secrets",
                        "webhook_secrets",
                        "Each webhook secret is "
                                + "whsec_ followed by letters, digits, +, /, = or _, at most 255 characters.");
            }
            list.add(secret.stringValue());
        }
        return new MerchantPsp.Credentials(key.stringValue(), list);
    }

    private static MerchantPsp.Credentials noCredentials(ObjectNode body) {
        if (body.has("secret_key")) {
            throw ApiProblem.badRequest("invalid_secret_key", "secret_key", "The simulator takes no secret key.");
        }
        if (body.has("webhook_secrets")) {
            throw ApiProblem.badRequest(
                    "invalid_webhook_secrets",
                    "webhook_secrets",
                    "The simulator's webhooks are verified with Kopek's KOPEK_PSP_WEBHOOK_SECRET.");
        }
        return MerchantPsp.Credentials.NONE;
    }

    /** What an admin may see: the PSP, whether credentials are set and how many secrets, never a secret. */
    private Map<String, Object> json(MerchantId merchant, Optional<MerchantPsp> psp) {
        String provider =
                psp.map(MerchantPsp::provider).orElse(psps.configured().name());
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("object", "merchant_psp");
        json.put("merchant_id", merchant.toString());
        json.put("provider", provider);
        json.put("source", psp.isPresent() ? "merchant" : "default");
        json.put(
                "secret_key_set",
                psp.map(p -> !p.credentials().secretKey().isEmpty()).orElse(false));
        json.put(
                "webhook_secrets",
                psp.map(p -> p.credentials().webhookSecrets().size()).orElse(0));
        boolean ownAccount =
                psp.map(p -> !p.credentials().secretKey().isEmpty()).orElse(false);
        json.put(
                "webhook_path",
                ownAccount ? "/v1/psp/" + provider + "/webhooks/" + merchant : "/v1/psp/" + provider + "/webhooks");
        json.put("version", psp.map(MerchantPsp::version).orElse(0));
        json.put("updated_at", psp.map(p -> p.updatedAt().toString()).orElse(null));
        return json;
    }

    private MerchantId merchant(String text) {
        return MerchantId.parse(text)
                .filter(id -> merchants.find(id).isPresent())
                .orElseThrow(() -> ApiProblem.notFound("merchant " + text));
    }
}

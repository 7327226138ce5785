package dev.kopek.notifications.web;

import dev.kopek.money.MerchantId;
import dev.kopek.notifications.NotificationInbox;
import dev.kopek.platform.ApiProblem;
import dev.kopek.platform.Audience;
import dev.kopek.platform.ProblemCode;
import dev.kopek.platform.ProblemCodes;
import dev.kopek.psp.MerchantPspStore;
import dev.kopek.psp.NotificationSource;
import dev.kopek.psp.PaymentProvider;
import dev.kopek.psp.PaymentProviders;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /v1/psp/{provider}/webhooks}: authenticated by the PSP's signature, not by an API key. A bad or old
 * signature is a 401 and nothing is stored; a duplicate is a 200 that changes nothing. A merchant on its own PSP
 * account (its own Stripe account) registers {@code /v1/psp/{provider}/webhooks/{merchant id}} there, and that
 * merchant's own signing secrets verify what arrives on it.
 */
@RestController
@Audience(Audience.Kind.PSP_WEBHOOK)
class PspWebhookController {

    private static final int MAX_BODY_BYTES = 64 * 1024;

    private final NotificationInbox inbox;
    private final PaymentProviders psps;
    private final MerchantPspStore merchantPsps;

    PspWebhookController(NotificationInbox inbox, PaymentProviders psps, MerchantPspStore merchantPsps) {
        this.inbox = inbox;
        this.psps = psps;
        this.merchantPsps = merchantPsps;
    }

    @PostMapping("/v1/psp/{provider}/webhooks")
    @ProblemCodes({
        ProblemCode.INVALID_SIGNATURE,
        ProblemCode.INVALID_NOTIFICATION,
        ProblemCode.BODY_TOO_LARGE,
        ProblemCode.UNREADABLE_BODY
    })
    Map<String, Object> receive(@PathVariable String provider, HttpServletRequest http) {
        PaymentProvider psp = psps.configured();
        if (!provider.equals(psp.name())) {
            throw ApiProblem.notFound("provider " + provider);
        }
        return receive(psp, NotificationSource.configured(psp.name()), http);
    }

    /**
     * Only for a merchant on its own account at this PSP: anything else is unknown here (404, nothing read).
     */
    @PostMapping("/v1/psp/{provider}/webhooks/{merchantId}")
    @ProblemCodes({
        ProblemCode.INVALID_SIGNATURE,
        ProblemCode.INVALID_NOTIFICATION,
        ProblemCode.BODY_TOO_LARGE,
        ProblemCode.UNREADABLE_BODY
    })
    Map<String, Object> receiveForMerchant(
            @PathVariable String provider, @PathVariable String merchantId, HttpServletRequest http) {
        MerchantId merchant = MerchantId.parse(merchantId)
                .filter(m -> merchantPsps.version(m).isPresent())
                .orElseThrow(() -> ApiProblem.notFound("webhook endpoint " + provider + "/" + merchantId));
        PaymentProvider psp = psps.forMerchant(merchant);
        // A merchant on Kopek's configured PSP has no route of its own: that PSP's events come on the global one.
        if (psp == psps.configured() || !provider.equals(psp.name())) {
            throw ApiProblem.notFound("webhook endpoint " + provider + "/" + merchantId);
        }
        // Verified with this merchant's own secrets, so it speaks for this merchant's account alone.
        return receive(psp, NotificationSource.merchant(psp.name(), merchant), http);
    }

    private Map<String, Object> receive(PaymentProvider psp, NotificationSource source, HttpServletRequest http) {
        String body = read(http);
        return switch (inbox.receive(psp, source, http.getHeader(psp.notificationSignatureHeader()), body)) {
            case NotificationInbox.Receipt.Plain.INVALID ->
                throw ApiProblem.of(
                        HttpStatus.UNAUTHORIZED,
                        "invalid_signature",
                        "The notification's signature is missing, wrong or outside the time" + " tolerance.");
            case NotificationInbox.Receipt.Plain.DUPLICATE -> Map.of("received", true, "duplicate", true);
            case NotificationInbox.Receipt.Plain.ACCEPTED -> Map.of("received", true, "duplicate", false);
            case NotificationInbox.Receipt.Malformed m ->
                throw ApiProblem.badRequest(
                        "invalid_notification",
                        m.field(),
                        "The notification is signed, but " + m.field() + " " + m.reason() + "; nothing was stored.");
        };
    }

    private static String read(HttpServletRequest http) {
        if (http.getContentLengthLong() > MAX_BODY_BYTES) {
            throw ApiProblem.badRequest("body_too_large", null, "A notification is at most 64 KiB.");
        }
        try (InputStream in = http.getInputStream()) {
            byte[] bytes = in.readNBytes(MAX_BODY_BYTES + 1);
            if (bytes.length > MAX_BODY_BYTES) {
                throw ApiProblem.badRequest("body_too_large", null, "A notification is at most 64 KiB.");
            }
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw ApiProblem.badRequest("unreadable_body", null, "The notification body could not be read.");
        }
    }
}

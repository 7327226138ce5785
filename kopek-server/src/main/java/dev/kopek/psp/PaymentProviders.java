package dev.kopek.psp;

import dev.kopek.money.MerchantId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.stereotype.Component;

/**
 * Which adapter a merchant's payments go to: the one its account names ({@code merchant_psp}, set by an admin), else
 * Kopek's configured PSP ({@code KOPEK_PSP_PROVIDER}). The simulator is one shared adapter; a merchant on Stripe gets
 * its own adapter built from its own sealed credentials, rebuilt when they change.
 */
@Component
public class PaymentProviders {

    /**
     * How long an instance trusts what it read about a merchant. Another instance's change reaches this one within
     * it; this instance's own changes at once ({@link #forget}).
     */
    static final Duration FRESH = Duration.ofSeconds(5);

    private final PaymentProvider configured;
    private final MerchantPspStore store;
    private final Map<String, MerchantAdapters> builders;
    private final PspCircuits circuits;
    private final Clock clock;
    private final Map<MerchantId, Cached> cache = new ConcurrentHashMap<>();

    PaymentProviders(
            PaymentProvider configured,
            MerchantPspStore store,
            List<MerchantAdapters> builders,
            PspCircuits circuits,
            Clock clock) {
        this.configured = configured;
        this.store = store;
        this.builders = builders.stream().collect(Collectors.toMap(MerchantAdapters::provider, Function.identity()));
        this.circuits = circuits;
        this.clock = clock;
    }

    private record Cached(int version, PaymentProvider adapter, Instant readAt) {}

    /** Kopek's configured PSP: the default, and the source of settlement reports. */
    public PaymentProvider configured() {
        return configured;
    }

    /** Whether a merchant may be put on this PSP here: the configured one, or one built per merchant. */
    public boolean available(String provider) {
        return provider.equals(configured.name()) || builders.containsKey(provider);
    }

    public PaymentProvider forMerchant(MerchantId merchant) {
        Instant now = clock.instant();
        Cached cached = cache.get(merchant);
        if (cached != null
                && !now.isBefore(cached.readAt())
                && now.isBefore(cached.readAt().plus(FRESH))) {
            return cached.adapter();
        }
        int version = store.version(merchant).orElse(0);
        if (cached == null || cached.version() != version) {
            cached = new Cached(version, version == 0 ? configured : build(merchant), now);
        }
        cache.put(merchant, new Cached(cached.version(), cached.adapter(), now));
        return cached.adapter();
    }

    /**
     * The circuit that gates the merchant's new payments: that of the account they go to (Kopek's configured account,
     * or the merchant's own account at its PSP, as {@link MerchantAdapters} built it).
     */
    public PspCircuit circuitFor(MerchantId merchant) {
        PaymentProvider adapter = forMerchant(merchant);
        return adapter == configured ? circuits.of(configured.name()) : circuits.of(adapter.name(), merchant);
    }

    /**
     * The adapter of the account a payment was sent through ({@code payments.psp_account}): null is Kopek's
     * configured PSP, a provider name the merchant's own account there. Never the merchant's current setting alone:
     * a payment is looked up and recovered where it was sent. A merchant that no longer has that account is an
     * error a person must see, never a lookup at another PSP (whose "not found" would free the intent).
     */
    public PaymentProvider forPayment(MerchantId merchant, String pspAccount) {
        if (pspAccount == null) {
            return configured;
        }
        PaymentProvider adapter = forMerchant(merchant);
        if (adapter == configured || !adapter.name().equals(pspAccount)) {
            forget(merchant); // what this instance cached may predate the change: read it again once
            adapter = forMerchant(merchant);
        }
        if (adapter == configured || !adapter.name().equals(pspAccount)) {
            throw new IllegalStateException("a payment of " + merchant + " went through its own " + pspAccount
                    + " account, which its PSP setting no longer names");
        }
        return adapter;
    }

    /**
     * Whether a notification from {@code source} may move an object of a payment of {@code merchant} sent through
     * {@code pspAccount}: only the account that holds the payment speaks for it. A merchant's own route speaks for
     * that merchant's payments in its own account alone; Kopek's global route only for payments sent through Kopek's
     * configured account.
     */
    public boolean speaksFor(NotificationSource source, MerchantId merchant, String pspAccount) {
        return source.merchant().isPresent()
                ? source.merchant().get().equals(merchant) && source.provider().equals(pspAccount)
                : pspAccount == null && source.provider().equals(configured.name());
    }

    /** Drops what this instance knows about the merchant, after an admin changed it here. */
    public void forget(MerchantId merchant) {
        cache.remove(merchant);
    }

    /** Reads a stored notification with the reader of the PSP that sent it. */
    public PspNotification readVerifiedNotification(String provider, String body) {
        if (provider.equals(configured.name())) {
            return configured.readVerifiedNotification(body);
        }
        return Optional.ofNullable(builders.get(provider))
                .orElseThrow(() -> new IllegalStateException(
                        "a notification from " + provider + " is stored, but that PSP is not configured here"))
                .readVerifiedNotification(body);
    }

    private PaymentProvider build(MerchantId merchant) {
        MerchantPsp psp = store.find(merchant)
                .orElseThrow(() -> new IllegalStateException(
                        "merchant " + merchant + " changed PSP while being read; the next call reads it again"));
        if (psp.provider().equals(configured.name())
                && psp.credentials().secretKey().isEmpty()) {
            return configured;
        }
        MerchantAdapters builder = builders.get(psp.provider());
        if (builder == null) {
            throw new IllegalStateException("merchant " + merchant + " is on " + psp.provider()
                    + ", which this Kopek does not run (KOPEK_PSP_PROVIDER=" + configured.name() + ")");
        }
        return builder.build(psp);
    }
}

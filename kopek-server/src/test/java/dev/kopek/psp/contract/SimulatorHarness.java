package dev.kopek.psp.contract;

import dev.kopek.money.Money;
import dev.kopek.psp.PaymentProvider;
import dev.kopek.psp.PspProperties;
import dev.kopek.psp.simulator.SimulatorPaymentProvider;
import dev.kopek.simulator.AcquirerSimulator;
import dev.kopek.support.SharedSimulator;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.OptionalLong;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** The bundled acquirer simulator, over HTTP. */
final class SimulatorHarness implements AdapterHarness {

    static final String SECRET = "whsec_contract_kit_simulator";
    private final AcquirerSimulator simulator = SharedSimulator.get();

    @Override
    public String name() {
        return "simulator";
    }

    @Override
    public PaymentProvider adapter(PspProperties limits, Clock clock) {
        return new SimulatorPaymentProvider(simulator.baseUri(), withSecret(limits), clock);
    }

    private static PspProperties withSecret(PspProperties p) {
        return new PspProperties(
                p.simulatorUrl(),
                p.simulatorPort(),
                p.connectTimeout(),
                p.readTimeout(),
                p.retryPauseMin(),
                p.retryPauseMax(),
                p.budget(),
                p.keyWindow(),
                SECRET,
                p.webhookTolerance());
    }

    @Override
    public String paymentMethod(Answer answer) {
        return switch (answer) {
            case APPROVE -> "pm_ok";
            case DECLINE -> "pm_declined";
            case REFUSE -> "pm_invalid";
            case SERVER_ERROR -> "pm_5xx_no_charge";
            case RATE_LIMIT -> "pm_429";
            case LOST_AFTER_CHARGE -> "pm_reset_after_charge";
            // pm_slow holds its key 3–8 s before it charges; a repeat meanwhile is 409 request_in_progress.
            case CONCURRENT_DUPLICATE -> "pm_slow";
            case REFUSED_CONNECTION -> "pm_ok";
            case REQUIRES_ACTION -> throw new IllegalArgumentException("the simulator has no 3-D Secure");
        };
    }

    @Override
    public boolean answers(Answer answer) {
        return answer != Answer.REQUIRES_ACTION;
    }

    @Override
    public PaymentProvider unreachable(PspProperties limits, Clock clock) {
        return new SimulatorPaymentProvider(ClosedPort.uri(), withSecret(limits), clock);
    }

    @Override
    public long chargeRequestsUnder(String providerKey) {
        return simulator.chargeRequests(providerKey);
    }

    @Override
    public long chargesUnder(String providerKey) {
        return simulator.charges().stream()
                .filter(c -> providerKey.equals(c.idempotencyKey()))
                .filter(c -> !c.status().equals("declined"))
                .count();
    }

    @Override
    public long amountAtPsp(String providerKey) {
        return simulator.charges().stream()
                .filter(c -> providerKey.equals(c.idempotencyKey()))
                .findFirst()
                .orElseThrow()
                .amount();
    }

    @Override
    public OptionalLong pspUnits(Money money) {
        return OptionalLong.of(money.minor());
    }

    @Override
    public Duration documentedKeyWindow() {
        return Duration.ofHours(24);
    }

    @Override
    public void releaseHeld() {
        // The simulator drops the connection at once: nothing is held.
    }

    @Override
    public String chargeSucceeded(
            String eventId, String providerKey, String pspReference, Money amount, Instant created) {
        return "{\"id\":\"" + eventId + "\",\"type\":\"charge.succeeded\",\"created\":" + created.getEpochSecond()
                + ",\"data\":{\"id\":\"" + pspReference + "\",\"status\":\"succeeded\",\"amount\":" + amount.minor()
                + ",\"currency\":\"" + amount.currency().code() + "\",\"idempotency_key\":\"" + providerKey + "\"}}";
    }

    @Override
    public String sign(String body, Instant signedAt, boolean withTheRightSecret) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(
                    (withTheRightSecret ? SECRET : "whsec_someone_else").getBytes(StandardCharsets.UTF_8),
                    "HmacSHA256"));
            String t = Long.toString(signedAt.getEpochSecond());
            return "t=" + t + ",v1="
                    + HexFormat.of().formatHex(mac.doFinal((t + "." + body).getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void reset() {
        simulator.reset();
    }
}

package dev.kopek.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.money.PaymentId;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import java.time.Duration;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Issue 10, defect 3: a person resolves every kind of parked outcome — payment, capture, refund — through the
 * same fenced path and the ledger; for a manual-capture payment "captured" is refused, since the PSP only holds an
 * authorization.
 */
class ManualReviewEveryKindTest extends IntegrationTest {

    private void closeTheKeyWindow() {
        clock.advance(Duration.ofHours(25));
        SIMULATOR.advanceClock(Duration.ofHours(25));
        reconciler.reconcileOnce();
    }

    @Test
    void aParkedManualCapturePaymentIsDecidedAuthorizedNeverCaptured() {
        Api api = newMerchant();
        String reference = newReference();
        Api.Response processing = api.pay(Api.newKey(), "{\"reference\":\"" + reference + "\",\"amount\":5000,"
                + "\"currency\":\"EUR\",\"payment_method\":\"pm_webhook_only\",\"capture_method\":\"manual\"}");
        assertThat(processing.status()).isEqualTo(202);
        closeTheKeyWindow();
        String charge = recordsAtPsp(reference).getFirst().id();
        String review = openReview("payment", processing.text("id"));

        Api.Response captured = resolve(review, "{\"decision\":\"captured\",\"psp_reference\":\"" + charge
                + "\"}");
        assertThat(captured.status()).isEqualTo(409);
        assertThat(captured.text("code")).isEqualTo("decision_not_applicable");

        Api.Response authorized = resolve(review, "{\"decision\":\"authorized\",\"psp_reference\":\"" + charge
                + "\"}");
        assertThat(authorized.status()).isEqualTo(200);
        JsonNode payment = api.get("/v1/payments/" + processing.text("id")).json();
        assertThat(payment.get("status").asString()).isEqualTo("authorized");
        assertThat(payment.get("amount_captured").asLong()).isZero();
        assertThat(kinds(processing.text("id"))).containsExactly("AUTHORIZATION_HELD");
    }

    @Test
    void aParkedCaptureAndAParkedRefundAreResolvedThroughTheLedger() {
        Api api = newMerchant();
        Api.Response authorized = api.pay(Api.newKey(), "{\"reference\":\"" + newReference() + "\",\"amount\":8000,"
                + "\"currency\":\"EUR\",\"payment_method\":\"pm_ok\",\"capture_method\":\"manual\"}");
        String id = authorized.text("id");
        String charge = authorized.text("psp_reference");
        SIMULATOR.armFault("capture", charge, "5xx_after_success", 1);
        assertThat(api.post("/v1/payments/" + id + "/capture", Api.newKey(), "{\"amount\":8000}").status())
                .isEqualTo(202);
        closeTheKeyWindow();

        Api.Response capture = resolve(openReview("capture", id), "{\"decision\":\"succeeded\",\"psp_reference\":\""
                + charge + "\"}");
        assertThat(capture.status()).isEqualTo(200);
        assertThat(api.get("/v1/payments/" + id).json().get("amount_captured").asLong()).isEqualTo(8_000);

        SIMULATOR.armFault("refund", charge, "5xx_after_success", 1);
        Api.Response refund = api.post("/v1/payments/" + id + "/refunds", Api.newKey(), "{\"amount\":2000}");
        reconciler.reconcileOnce();
        closeTheKeyWindow();
        Api.Response refunded = resolve(openReview("refund", id), "{\"decision\":\"succeeded\",\"psp_reference\":"
                + "\"re_portal\"}");
        assertThat(refunded.status()).isEqualTo(200);
        assertThat(api.get("/v1/refunds/" + refund.text("id")).text("status")).isEqualTo("succeeded");
        assertThat(kinds(id)).contains("CAPTURED", "REFUND_SUCCEEDED");
    }

    private String openReview(String subject, String paymentId) {
        JsonNode queue = admin().get("/v1/ops/manual-review").json().get("data");
        return StreamSupport.stream(queue.spliterator(), false)
                .filter(r -> r.get("subject").asString().equals(subject)
                        && paymentId.equals(r.get("payment_id").asString()))
                .findFirst().orElseThrow().get("id").asString();
    }

    private Api.Response resolve(String review, String body) {
        return admin().post("/v1/ops/manual-review/" + review + "/resolve", null, body);
    }

    private List<String> kinds(String paymentId) {
        return jdbc.sql("SELECT kind FROM ledger_transactions WHERE payment_id = :p ORDER BY id")
                .param("p", PaymentId.parse(paymentId).orElseThrow().value()).query(String.class).list();
    }
}

package dev.kopek.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.money.PaymentId;
import dev.kopek.support.Api;
import dev.kopek.support.ConsoleBrowser;
import dev.kopek.support.IntegrationTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Issue 10, defect 3: a person resolves every kind of parked outcome — payment, capture, void, refund, each
 * either way — through the same fenced path and the ledger; for a manual-capture payment "captured" is refused,
 * since the PSP only holds an authorization. Each parked outcome here is past the PSP's key window (the simulator
 * no longer knows the key), so the machine never decides it.
 */
class ManualReviewEveryKindTest extends IntegrationTest {

    /** A manual-capture payment parked past the key window, its review open: only a person can decide it now. */
    private record Parked(Api api, String reference, String id, String charge, String review) {}

    /** A manual-capture payment whose outcome only the PSP's notification would tell, parked for a person. */
    private Parked parkedManualCapture(long amount) {
        Api api = newMerchant();
        String reference = newReference();
        Api.Response processing = api.pay(
                Api.newKey(),
                "{\"reference\":\"" + reference + "\",\"amount\":" + amount
                        + ",\"currency\":\"EUR\",\"payment_method\":\"pm_webhook_only\",\"capture_method\":\"manual\"}");
        assertThat(processing.status()).isEqualTo(202);
        closeTheKeyWindow();
        String charge = recordsAtPsp(reference).getFirst().id();
        String id = processing.text("id");
        return new Parked(api, reference, id, charge, openReview("payment", id));
    }

    private void closeTheKeyWindow() {
        clock.advance(Duration.ofHours(25));
        SIMULATOR.advanceClock(Duration.ofHours(25));
        reconciler.reconcileOnce();
    }

    /**
     * Issue 24: the console's "authorized" gives no expiry; the hold is then the card's 7 days from when the payment
     * was sent (when the PSP authorized it), not from when its review was opened a day or more later.
     */
    @Test
    void anAuthorizationDecidedInTheConsoleExpiresWhenThePspsHoldDoes() throws Exception {
        Parked parked = parkedManualCapture(2500);

        ConsoleBrowser console = ConsoleBrowser.loggedIn(baseUri(), ADMIN_TOKEN);
        var resolved = console.post(
                "/console/reviews/" + parked.review() + "/resolve",
                "decision=authorized&psp_reference=" + parked.charge() + "&note=seen+on+the+dashboard");

        assertThat(resolved.statusCode()).as(resolved.body()).isEqualTo(302);
        JsonNode payment = parked.api().get("/v1/payments/" + parked.id()).json();
        assertThat(payment.get("status").asString()).isEqualTo("authorized");
        var times = jdbc.sql("SELECT created_at, capture_before FROM payments WHERE reference = :r")
                .param("r", parked.reference())
                .query((rs, n) -> new Instant[] {
                    rs.getTimestamp("created_at").toInstant(),
                    rs.getTimestamp("capture_before").toInstant()
                })
                .single();
        assertThat(times[1]).isEqualTo(times[0].plus(Duration.ofDays(7)));
    }

    @Test
    void aParkedManualCapturePaymentIsDecidedAuthorizedNeverCaptured() {
        Parked parked = parkedManualCapture(5000);

        Api.Response captured =
                resolve(parked.review(), "{\"decision\":\"captured\",\"psp_reference\":\"" + parked.charge() + "\"}");
        assertThat(captured.status()).isEqualTo(409);
        assertThat(captured.text("code")).isEqualTo("decision_not_applicable");

        Api.Response authorized =
                resolve(parked.review(), "{\"decision\":\"authorized\",\"psp_reference\":\"" + parked.charge() + "\"}");
        assertThat(authorized.status()).isEqualTo(200);
        JsonNode payment = parked.api().get("/v1/payments/" + parked.id()).json();
        assertThat(payment.get("status").asString()).isEqualTo("authorized");
        assertThat(payment.get("amount_captured").asLong()).isZero();
        assertThat(kinds(parked.id())).containsExactly("AUTHORIZATION_HELD");
    }

    @Test
    void aParkedCaptureAndAParkedRefundAreResolvedThroughTheLedger() {
        Api api = newMerchant();
        Api.Response authorized = api.pay(
                Api.newKey(),
                "{\"reference\":\"" + newReference() + "\",\"amount\":8000,"
                        + "\"currency\":\"EUR\",\"payment_method\":\"pm_ok\",\"capture_method\":\"manual\"}");
        String id = authorized.text("id");
        String charge = authorized.text("psp_reference");
        SIMULATOR.armFault("capture", charge, "5xx_after_success", 1);
        assertThat(api.post("/v1/payments/" + id + "/capture", Api.newKey(), "{\"amount\":8000}")
                        .status())
                .isEqualTo(202);
        closeTheKeyWindow();

        Api.Response capture =
                resolve(openReview("capture", id), "{\"decision\":\"succeeded\",\"psp_reference\":\"" + charge + "\"}");
        assertThat(capture.status()).isEqualTo(200);
        assertThat(api.get("/v1/payments/" + id).json().get("amount_captured").asLong())
                .isEqualTo(8_000);

        SIMULATOR.armFault("refund", charge, "5xx_after_success", 1);
        Api.Response refund = api.post("/v1/payments/" + id + "/refunds", Api.newKey(), "{\"amount\":2000}");
        reconciler.reconcileOnce();
        closeTheKeyWindow();
        Api.Response refunded =
                resolve(openReview("refund", id), "{\"decision\":\"succeeded\",\"psp_reference\":" + "\"re_portal\"}");
        assertThat(refunded.status()).isEqualTo(200);
        assertThat(api.get("/v1/refunds/" + refund.text("id")).text("status")).isEqualTo("succeeded");
        assertThat(kinds(id)).contains("CAPTURED", "REFUND_SUCCEEDED");
    }

    @Test
    void aParkedPaymentNothingChargedIsDecidedFailedAndItsIntentIsFreeAgain() {
        Api api = newMerchant();
        String reference = newReference();
        Api.Response processing = api.pay(Api.newKey(), Api.payment(reference, 2_500, "EUR", "pm_5xx_no_charge"));
        assertThat(processing.status()).isEqualTo(202);
        closeTheKeyWindow();
        String review = openReview("payment", processing.text("id"));

        assertThat(resolve(review, "{\"decision\":\"failed\"}").status()).isEqualTo(200);

        assertThat(api.get("/v1/payments/" + processing.text("id")).text("status"))
                .isEqualTo("failed");
        assertThat(kinds(processing.text("id")))
                .as("nothing moved, nothing posted")
                .isEmpty();
        assertThat(chargesAtPsp(reference)).isZero();
        assertThat(api.pay(Api.newKey(), Api.payment(reference, 2_500, "EUR", "pm_ok"))
                        .status())
                .as("the intent is free again")
                .isEqualTo(201);
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
    }

    @Test
    void aParkedCaptureThatNeverHappenedIsDecidedFailedAndItsReservationGoesBack() {
        Api api = newMerchant();
        Api.Response authorized = api.pay(
                Api.newKey(),
                Api.payment(newReference(), 6_000, "EUR", "pm_ok").replace("}", ",\"capture_method\":\"manual\"}"));
        String id = authorized.text("id");
        SIMULATOR.armFault("capture", authorized.text("psp_reference"), "5xx_no_effect", 1);
        Api.Response capture = api.post("/v1/payments/" + id + "/capture", Api.newKey(), "{\"amount\":4000}");
        assertThat(capture.status()).isEqualTo(202);
        assertThat(api.get("/v1/payments/" + id).json().get("amount_capturable").asLong())
                .isEqualTo(2_000);
        closeTheKeyWindow();

        assertThat(resolve(openReview("capture", id), "{\"decision\":\"failed\"}")
                        .status())
                .isEqualTo(200);

        JsonNode payment = api.get("/v1/payments/" + id).json();
        assertThat(payment.get("status").asString()).isEqualTo("authorized");
        assertThat(payment.get("amount_captured").asLong()).isZero();
        assertThat(payment.get("amount_capturable").asLong())
                .as("the reservation went back")
                .isEqualTo(6_000);
        assertThat(operations(id, "capture")).containsExactly("FAILED");
        assertThat(api.post("/v1/payments/" + id + "/capture", Api.newKey(), "{\"amount\":6000}")
                        .status())
                .isEqualTo(200);
        assertThat(kinds(id)).containsExactlyInAnyOrder("AUTHORIZATION_HELD", "CAPTURED");
    }

    @Test
    void aParkedVoidIsDecidedSucceededWhenThePspVoidedAndFailedWhenItDidNot() {
        Api api = newMerchant();
        Api.Response voidedAtPsp = api.pay(
                Api.newKey(),
                Api.payment(newReference(), 3_000, "EUR", "pm_ok").replace("}", ",\"capture_method\":\"manual\"}"));
        Api.Response untouched = api.pay(
                Api.newKey(),
                Api.payment(newReference(), 4_000, "EUR", "pm_ok").replace("}", ",\"capture_method\":\"manual\"}"));
        SIMULATOR.armFault("void", voidedAtPsp.text("psp_reference"), "5xx_after_success", 1);
        SIMULATOR.armFault("void", untouched.text("psp_reference"), "5xx_no_effect", 1);
        Api.Response firstVoid = api.post("/v1/payments/" + voidedAtPsp.text("id") + "/void", Api.newKey(), "{}");
        Api.Response secondVoid = api.post("/v1/payments/" + untouched.text("id") + "/void", Api.newKey(), "{}");
        assertThat(firstVoid.status()).isEqualTo(202);
        assertThat(secondVoid.status()).isEqualTo(202);
        closeTheKeyWindow();

        assertThat(resolve(
                                openReview("void", voidedAtPsp.text("id")),
                                "{\"decision\":\"succeeded\"," + "\"psp_reference\":\""
                                        + voidedAtPsp.text("psp_reference") + "\"}")
                        .status())
                .isEqualTo(200);
        assertThat(resolve(openReview("void", untouched.text("id")), "{\"decision\":\"failed\"}")
                        .status())
                .isEqualTo(200);

        assertThat(api.get("/v1/payments/" + voidedAtPsp.text("id")).text("status"))
                .isEqualTo("voided");
        assertThat(operations(voidedAtPsp.text("id"), "void")).containsExactly("SUCCEEDED");
        assertThat(kinds(voidedAtPsp.text("id")))
                .containsExactlyInAnyOrder("AUTHORIZATION_HELD", "AUTHORIZATION_RELEASED");

        JsonNode stillHeld = api.get("/v1/payments/" + untouched.text("id")).json();
        assertThat(stillHeld.get("status").asString()).isEqualTo("authorized");
        assertThat(stillHeld.get("amount_capturable").asLong())
                .as("the void's release went back")
                .isEqualTo(4_000);
        assertThat(operations(untouched.text("id"), "void")).containsExactly("FAILED");
        assertThat(kinds(untouched.text("id"))).containsExactly("AUTHORIZATION_HELD");
        assertThat(api.post("/v1/payments/" + untouched.text("id") + "/capture", Api.newKey(), "{}")
                        .status())
                .as("the authorization can still be captured")
                .isEqualTo(200);
    }

    /** The statuses of a payment's operations of one kind, oldest first. */
    private List<String> operations(String paymentId, String kind) {
        return jdbc.sql("SELECT status FROM payment_operations WHERE payment_id = :p AND kind = :kind"
                        + " ORDER BY created_at, id")
                .param("p", PaymentId.parse(paymentId).orElseThrow().value())
                .param("kind", kind)
                .query(String.class)
                .list();
    }

    private String openReview(String subject, String paymentId) {
        JsonNode queue = admin().get("/v1/ops/manual-review?limit=500").json().get("data");
        return StreamSupport.stream(queue.spliterator(), false)
                .filter(r -> r.get("subject").asString().equals(subject)
                        && paymentId.equals(r.get("payment_id").asString()))
                .findFirst()
                .orElseThrow()
                .get("id")
                .asString();
    }

    private Api.Response resolve(String review, String body) {
        return admin().post("/v1/ops/manual-review/" + review + "/resolve", null, body);
    }

    private List<String> kinds(String paymentId) {
        return jdbc.sql("SELECT kind FROM ledger_transactions WHERE payment_id = :p ORDER BY id")
                .param("p", PaymentId.parse(paymentId).orElseThrow().value())
                .query(String.class)
                .list();
    }
}

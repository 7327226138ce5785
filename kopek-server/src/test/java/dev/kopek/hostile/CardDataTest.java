package dev.kopek.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.TableCounts;
import java.net.http.HttpRequest;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** L12: a card number in any free-text field is refused with 400, nothing is stored, and it is never logged. */
@ExtendWith(OutputCaptureExtension.class)
class CardDataTest extends IntegrationTest {

    private static String payment(String reference, String method, String extra) {
        return "{\"reference\":\"" + reference + "\",\"amount\":100,\"currency\":\"EUR\",\"payment_method\":\"" + method
                + "\"" + extra + "}";
    }

    static Stream<Arguments> merchantRequests() {
        return Stream.of(
                Arguments.of("/v1/payments", payment("4111111111111111", "pm_ok", ""), "reference"),
                Arguments.of("/v1/payments", payment("order 4111-1111-1111-1111", "pm_ok", ""), "reference"),
                Arguments.of("/v1/payments", payment("r-card-1", "pm 4111 1111 1111 1111", ""), "payment_method"),
                Arguments.of("/v1/payments", payment("r-card-2", "pm_4111111111111111", ""), "payment_method"),
                Arguments.of(
                        "/v1/payments",
                        payment("r-card-3", "pm_ok", ",\"description\":\"for 5555 5555 5555" + " 4444 thanks\""),
                        "description"),
                Arguments.of(
                        "/v1/payments",
                        payment("r-card-4", "pm_ok", ",\"metadata\":{\"pan\":\"ref 12 4111 1111" + " 1111 1111 99\"}"),
                        "metadata.pan"),
                Arguments.of(
                        "/v1/payments",
                        payment("r-card-5", "pm_ok", ",\"metadata\":{\"4111111111111111\":\"x\"}"),
                        "metadata"),
                Arguments.of(
                        "/v1/payments",
                        payment("r-card-6", "pm_ok", ",\"metadata\":{\"amex\":\"3782 822463" + " 10005\"}"),
                        "metadata.amex"),
                Arguments.of(
                        "/v1/payments",
                        payment(
                                "r-card-7",
                                "pm_ok",
                                ",\"metadata\":{\"arabic\":\"" + "\u0664\u0661\u0661\u0661".repeat(1)
                                        + "\u0661".repeat(12) + "\"}"),
                        "metadata.arabic"),
                Arguments.of(
                        "/v1/webhook-endpoints",
                        "{\"url\":\"https://example.com/hook/4111111111111111\"," + "\"event_types\":[\"*\"]}",
                        "url"));
    }

    @ParameterizedTest(name = "{2}: {1}")
    @MethodSource("merchantRequests")
    void cardNumberInAnyFreeTextFieldIsRefusedStoredNowhereAndNeverLogged(
            String path, String body, String field, CapturedOutput output) {
        Api api = newMerchant();
        Map<String, Long> before = TableCounts.of(jdbc);

        Api.Response refused = api.post(path, Api.newKey(), body);

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.text("code")).isEqualTo("card_data_not_accepted");
        assertThat(refused.text("field")).isEqualTo(field);
        assertThat(refused.body()).doesNotContain("4111111111111111").doesNotContain("1111 1111");
        assertThat(TableCounts.of(jdbc)).isEqualTo(before);
        assertThat(output.getAll())
                .doesNotContain("4111111111111111")
                .doesNotContain("4111 1111 1111 1111")
                .doesNotContain("5555 5555 5555 4444")
                .doesNotContain("3782 822463");
    }

    @org.junit.jupiter.api.Test
    void cardNumberInARefundReasonIsRefused() {
        Api api = newMerchant();
        String id = api.pay(Api.newKey(), Api.payment(newReference(), 1000, "EUR", "pm_ok"))
                .text("id");
        Map<String, Long> before = TableCounts.of(jdbc);

        Api.Response refused = api.post(
                "/v1/payments/" + id + "/refunds",
                Api.newKey(),
                "{\"amount\":10,\"reason\":\"customer card 4111 1111 1111 1111\"}");

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.text("code")).isEqualTo("card_data_not_accepted");
        assertThat(refused.text("field")).isEqualTo("reason");
        assertThat(TableCounts.of(jdbc)).isEqualTo(before);
    }

    @org.junit.jupiter.api.Test
    void cardNumbersInAdminFreeTextAreRefusedToo() {
        Map<String, Long> before = TableCounts.of(jdbc);
        Api.Response merchant = admin().send(admin().request("/v1/admin/merchants")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"Shop 4111111111111111\"}"))
                .build());
        Api.Response note = admin().send(admin().request("/v1/ops/manual-review/mrv_" + "0".repeat(32) + "/resolve")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"decision\":\"failed\",\"resolved_by\":\"ann\",\"note\":\"card 4111-1111-1111-1111\"}"))
                .build());

        assertThat(merchant.status()).isEqualTo(400);
        assertThat(merchant.text("code")).isEqualTo("card_data_not_accepted");
        assertThat(note.status()).isEqualTo(400);
        assertThat(note.text("field")).isEqualTo("note");
        assertThat(TableCounts.of(jdbc)).isEqualTo(before);
    }

    @org.junit.jupiter.api.Test
    void numbersThatAreNotCardsStillPass() {
        Api api = newMerchant();
        Api.Response paid = api.post(
                "/v1/payments",
                Api.newKey(),
                payment(
                        newReference(),
                        "pm_ok",
                        ",\"description\":\"order 4111111111111112, phone +7 916 123-45-67, 2026-12-03\","
                                + "\"metadata\":{\"long\":\"41111111111111111111111\"}"));

        assertThat(paid.status()).isEqualTo(201);
    }
}

package dev.kopek.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The ledger over HTTP: a real payment's posting, the merchant's balance and journal, and the admin API. */
class LedgerApiTest extends IntegrationTest {

    @Test
    void approvedPaymentPostsABalancedCaptureVisibleInTheJournalAndTheBalance() {
        Api api = newMerchant();
        Api.Response payment = api.pay(Api.newKey(), Api.payment(newReference(), 499_000, "RUB", "pm_ok"));
        assertThat(payment.text("status")).isEqualTo("captured");

        Api.Response journal = api.get("/v1/ledger/transactions?payment_id=" + payment.text("id"));
        assertThat(journal.status()).isEqualTo(200);
        JsonNode data = journal.json().get("data");
        assertThat(data).hasSize(1);
        JsonNode capture = data.get(0);
        assertThat(capture.get("kind").asString()).isEqualTo("captured");
        assertThat(capture.get("payment_id").asString()).isEqualTo(payment.text("id"));
        assertThat(capture.get("amount").asLong()).isEqualTo(499_000);
        assertThat(capture.get("id").asString()).startsWith("ltx_");
        long net = 0;
        List<String> lines = new ArrayList<>();
        for (JsonNode entry : capture.get("entries")) {
            long amount = entry.get("amount").asLong();
            net += entry.get("side").asString().equals("debit") ? amount : -amount;
            lines.add(entry.get("owner").asString() + " " + entry.get("account").asString() + " "
                    + entry.get("side").asString() + " " + amount);
        }
        assertThat(net).isZero();
        assertThat(lines)
                .containsExactly("platform psp_receivable debit 499000", "merchant merchant_payable credit 499000");
        assertThat(journal.json().get("has_more").asBoolean()).isFalse();

        JsonNode balance = api.get("/v1/balance").json();
        assertThat(balance.get("object").asString()).isEqualTo("balance");
        assertThat(amounts(balance.get("available"))).containsExactly("499000 RUB");
        assertThat(amounts(balance.get("pending"))).containsExactly("0 RUB");
        assertThat(amounts(balance.get("held"))).containsExactly("0 RUB");

        Api.Response single =
                api.get("/v1/ledger/transactions/" + capture.get("id").asString());
        assertThat(single.status()).isEqualTo(200);
        assertThat(single.json().get("entries")).hasSize(2);
    }

    @Test
    void feeSetByTheAdminIsTakenOnTheNextCapture() {
        Api api = newMerchant();
        var merchant = merchants.create("Fee merchant");
        Api feeMerchant = new Api(baseUri(), merchants.issueKey(merchant.id()).secret());
        Api.Response fee = send(
                admin(),
                put(
                        admin(),
                        "/v1/admin/merchants/" + merchant.id() + "/fees",
                        "{\"bps\":250,\"fixed_minor\":30,\"currency\":\"EUR\"}"));
        assertThat(fee.status()).isEqualTo(200);
        assertThat(fee.json().get("bps").asInt()).isEqualTo(250);

        Api.Response payment = feeMerchant.pay(Api.newKey(), Api.payment(newReference(), 10_000, "EUR", "pm_ok"));
        JsonNode entries = feeMerchant
                .get("/v1/ledger/transactions?payment_id=" + payment.text("id"))
                .json()
                .get("data")
                .get(0)
                .get("entries");
        assertThat(entries).hasSize(3);
        assertThat(entries.get(1).get("amount").asLong()).isEqualTo(9_720);
        assertThat(entries.get(2).get("account").asString()).isEqualTo("platform_revenue");
        assertThat(entries.get(2).get("amount").asLong()).isEqualTo(280);
        assertThat(amounts(feeMerchant.get("/v1/balance").json().get("available")))
                .containsExactly("9720 EUR");

        Api.Response listed = admin().get("/v1/admin/merchants/" + merchant.id() + "/fees");
        assertThat(listed.json().get("data")).hasSize(1);
        // Not for merchants: the admin API takes only the admin token.
        assertThat(send(
                                api,
                                put(
                                        api,
                                        "/v1/admin/merchants/" + merchant.id() + "/fees",
                                        "{\"bps\":0,\"fixed_minor\":0,\"currency\":\"EUR\"}"))
                        .status())
                .isEqualTo(401);
    }

    @Test
    void feeRequestsAreValidated() {
        var merchant = merchants.create("Validated fee merchant");
        String path = "/v1/admin/merchants/" + merchant.id() + "/fees";
        assertThat(feeProblem(path, "{\"bps\":10001,\"fixed_minor\":0,\"currency\":\"EUR\"}"))
                .isEqualTo("invalid_bps");
        assertThat(feeProblem(path, "{\"bps\":1.5,\"fixed_minor\":0,\"currency\":\"EUR\"}"))
                .isEqualTo("invalid_bps");
        assertThat(feeProblem(path, "{\"bps\":1,\"fixed_minor\":-1,\"currency\":\"EUR\"}"))
                .isEqualTo("invalid_fixed_minor");
        assertThat(feeProblem(path, "{\"bps\":1,\"fixed_minor\":0,\"currency\":\"XXX\"}"))
                .isEqualTo("invalid_currency");
        assertThat(feeProblem(path, "{\"bps\":1,\"fixed_minor\":0,\"currency\":\"EUR\",\"x\":1}"))
                .isEqualTo("unknown_field");
        Api.Response unknown = send(
                admin(),
                put(
                        admin(),
                        "/v1/admin/merchants/mer_00000000000000000000000000000000/fees",
                        "{\"bps\":1,\"fixed_minor\":0,\"currency\":\"EUR\"}"));
        assertThat(unknown.status()).isEqualTo(404);
    }

    @Test
    void journalIsMerchantScopedPagedAndValidated() {
        Api api = newMerchant();
        Api other = newMerchant();
        List<String> payments = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            payments.add(api.pay(Api.newKey(), Api.payment(newReference(), 100 + i, "EUR", "pm_ok"))
                    .text("id"));
        }

        Api.Response first = api.get("/v1/ledger/transactions?limit=2");
        assertThat(first.json().get("data")).hasSize(2);
        assertThat(first.json().get("has_more").asBoolean()).isTrue();
        String last = first.json().get("data").get(1).get("id").asString();
        Api.Response second = api.get("/v1/ledger/transactions?limit=2&after=" + last);
        assertThat(second.json().get("data")).hasSize(1);
        assertThat(second.json().get("has_more").asBoolean()).isFalse();
        assertThat(second.json().get("data").get(0).get("payment_id").asString())
                .isEqualTo(payments.get(2));

        // Knowing another merchant's payment or transaction id grants nothing (L11).
        assertThat(other.get("/v1/ledger/transactions?payment_id=" + payments.getFirst())
                        .json()
                        .get("data"))
                .isEmpty();
        assertThat(other.get("/v1/ledger/transactions/" + last).status()).isEqualTo(404);
        assertThat(other.get("/v1/ledger/transactions").json().get("data")).isEmpty();
        assertThat(other.get("/v1/balance").json().get("available")).isEmpty();

        assertThat(code(api.get("/v1/ledger/transactions?limit=0"))).isEqualTo("invalid_limit");
        assertThat(code(api.get("/v1/ledger/transactions?limit=101"))).isEqualTo("invalid_limit");
        assertThat(code(api.get("/v1/ledger/transactions?payment_id=42"))).isEqualTo("invalid_payment_id");
        assertThat(code(api.get("/v1/ledger/transactions?after=pay_1"))).isEqualTo("invalid_cursor");
        assertThat(api.as(null).get("/v1/balance").status()).isEqualTo(401);
    }

    @Test
    void adminReversesATransactionOnceAndRunsTheDriftCheck() {
        Api api = newMerchant();
        String paymentId = api.pay(Api.newKey(), Api.payment(newReference(), 7_000, "EUR", "pm_ok"))
                .text("id");
        String capture = api.get("/v1/ledger/transactions?payment_id=" + paymentId)
                .json()
                .get("data")
                .get(0)
                .get("id")
                .asString();

        Api.Response reversal = admin().post(
                        "/v1/admin/ledger/transactions/" + capture + "/reversal",
                        null,
                        "{\"reason\":\"PSP reported the capture twice\"}");
        assertThat(reversal.status()).isEqualTo(201);
        assertThat(reversal.json().get("reverses").asString()).isEqualTo(capture);
        assertThat(reversal.json().get("kind").asString()).isEqualTo("reversal");
        Api.Response again = admin().post(
                        "/v1/admin/ledger/transactions/" + capture + "/reversal", null, "{\"reason\":\"asked twice\"}");
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.text("id")).isEqualTo(reversal.text("id"));
        assertThat(amounts(api.get("/v1/balance").json().get("available"))).containsExactly("0 EUR");
        assertThat(api.get("/v1/ledger/transactions?payment_id=" + paymentId)
                        .json()
                        .get("data"))
                .hasSize(2);
        assertThat(admin().post(
                                "/v1/admin/ledger/transactions/ltx_00000000000000000000000000000000/reversal",
                                null,
                                "{\"reason\":\"none\"}")
                        .status())
                .isEqualTo(404);

        Api.Response check = admin().post("/v1/ops/ledger/drift-check", null, "{}");
        assertThat(check.status()).isEqualTo(200);
        assertThat(check.json().get("accounts_checked").asLong()).isPositive();
    }

    private static HttpRequest put(Api as, String path, String body) {
        return as.request(path)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body))
                .build();
    }

    private static Api.Response send(Api as, HttpRequest request) {
        return as.send(request);
    }

    private String feeProblem(String path, String body) {
        Api.Response response = send(admin(), put(admin(), path, body));
        assertThat(response.status()).isEqualTo(400);
        return code(response);
    }

    private static String code(Api.Response response) {
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
        return response.text("code");
    }

    private static List<String> amounts(JsonNode list) {
        List<String> result = new ArrayList<>();
        list.forEach(a ->
                result.add(a.get("amount").asLong() + " " + a.get("currency").asString()));
        return result;
    }
}

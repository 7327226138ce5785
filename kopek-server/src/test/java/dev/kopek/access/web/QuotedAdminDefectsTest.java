package dev.kopek.access.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import org.junit.jupiter.api.Test;

/**
 * The defects issue 9 quotes, one test each, as a merchant's key would have tried them on the old main (where the
 * admin check read a prefix of the raw URI): each created a merchant, listed every merchant's review items, or
 * told the stranger which methods the admin route has.
 */
class QuotedAdminDefectsTest extends IntegrationTest {

    @Test
    void semicolonParameterInTheAdminSegmentCreatesNoMerchant() {
        assertRefusedWithoutNewMerchant("POST", "/v1/admin;x/merchants");
    }

    @Test
    void percentEncodedLetterInTheAdminSegmentCreatesNoMerchant() {
        assertRefusedWithoutNewMerchant("POST", "/v1/%61dmin/merchants");
    }

    @Test
    void semicolonParameterInTheVersionSegmentCreatesNoMerchant() {
        assertRefusedWithoutNewMerchant("POST", "/v1;x/admin/merchants");
    }

    @Test
    void jsessionidParameterCreatesNoMerchant() {
        assertRefusedWithoutNewMerchant("POST", "/v1/admin/merchants;jsessionid=0123456789ABCDEF");
    }

    @Test
    void percentEncodedVersionSegmentCreatesNoMerchant() {
        assertRefusedWithoutNewMerchant("POST", "/%76%31/admin/merchants");
    }

    @Test
    void absoluteFormRequestTargetCreatesNoMerchant() {
        assertRefusedWithoutNewMerchant("POST", "http://127.0.0.1:" + port + "/v1/admin;x/merchants");
        assertRefusedWithoutNewMerchant("POST", "http://127.0.0.1:" + port + "/v1/%61dmin/merchants");
    }

    @Test
    void merchantCannotListEveryMerchantsReviewItemsThroughASemicolon() {
        RawRequest.Answer answer =
                new RawRequest("GET", "/v1/ops;x/manual-review?status=all", merchantKey(), null).send(port);
        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.body()).contains("\"code\":\"request_rejected\"").doesNotContain("manual_review\"");
    }

    @Test
    void merchantCannotReachTheReviewListThroughAnEncodedLetter() {
        RawRequest.Answer answer =
                new RawRequest("GET", "/v1/%6fps/manual-review?status=all", merchantKey(), null).send(port);
        assertThat(answer.status()).isEqualTo(401);
        assertThat(answer.body()).contains("\"code\":\"invalid_admin_token\"");
    }

    @Test
    void headOnAnAdminRouteIsRefused() {
        String merchantKey = merchantKey();
        for (String target : new String[] {"/v1/ops/manual-review", "/v1/%6fps/manual-review"}) {
            RawRequest.Answer answer = new RawRequest("HEAD", target, merchantKey, null).send(port);
            assertThat(answer.status()).as(target).isEqualTo(401);
            assertThat(answer.header("content-type")).as(target).startsWith("application/problem+json");
        }
    }

    @Test
    void optionsDoesNotListTheAdminRoutesMethods() {
        String merchantKey = merchantKey();
        for (String target : new String[] {"/v1/admin/merchants", "/v1/%61dmin/merchants"}) {
            for (String bearer : new String[] {merchantKey, null}) {
                RawRequest.Answer answer = new RawRequest("OPTIONS", target, bearer, null).send(port);
                assertThat(answer.status()).as(target).isEqualTo(401);
                assertThat(answer.header("allow")).as(target).isNull();
            }
        }
    }

    @Test
    void aWrongMethodOnAnAdminPathIsAnAuthenticationRefusalNotA405() {
        RawRequest.Answer answer = new RawRequest("DELETE", "/v1/admin/merchants", null, null).send(port);
        assertThat(answer.status()).isEqualTo(401);
        assertThat(answer.header("allow")).isNull();
    }

    @Test
    void theAdminStillReachesItsRoutes() {
        RawRequest.Answer answer =
                new RawRequest("POST", "/v1/admin/merchants", ADMIN_TOKEN, "{\"name\":\"ok\"}").send(port);
        assertThat(answer.status()).isEqualTo(201);
        assertThat(new RawRequest("HEAD", "/v1/ops/manual-review", ADMIN_TOKEN, null)
                        .send(port)
                        .status())
                .isEqualTo(200);
    }

    private void assertRefusedWithoutNewMerchant(String method, String target) {
        String merchantKey = merchantKey();
        long before = rows("merchants");
        for (String bearer : new String[] {merchantKey, null}) {
            RawRequest.Answer answer = new RawRequest(method, target, bearer, "{\"name\":\"evil\"}").send(port);
            assertThat(answer.status()).as(target).isIn(400, 401, 403);
            assertThat(answer.header("content-type")).as(target).startsWith("application/problem+json");
        }
        assertThat(rows("merchants")).isEqualTo(before);
    }

    private String merchantKey() {
        Api merchant = newMerchant();
        return merchant.request("/")
                .build()
                .headers()
                .firstValue("Authorization")
                .orElseThrow()
                .substring(7);
    }
}

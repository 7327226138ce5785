package dev.kopek.ratelimits;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import dev.kopek.support.Race;
import dev.kopek.support.TableCounts;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Rate limits run before the idempotency layer: a refused request claims no key and stores nothing, one merchant's
 * flood leaves another's payments alone, and an admin sets the limits. The clock does not move in these tests, so
 * a bucket with a tiny refill rate admits exactly its burst.
 */
class RateLimitTest extends IntegrationTest {

    private static final String SLOW = "{\"per_second\": 0.001, \"burst\": %d}";

    @Autowired
    MeterRegistry meters;

    @Test
    void aRefusedPaymentClaimsNoKeyStoresNothingAndItsKeyWorksLater() {
        Tenant tenant = tenant();
        Api api = tenant.api();
        String merchant = tenant.id();
        setLimits(merchant, "{\"writes\": " + SLOW.formatted(3) + "}");
        for (int i = 0; i < 3; i++) {
            assertThat(api.pay(Api.newKey(), Api.payment(newReference(), 1000, "EUR", "pm_ok"))
                            .status())
                    .isEqualTo(201);
        }
        Map<String, Long> before = TableCounts.of(jdbc);
        String key = Api.newKey();
        String reference = newReference();

        Api.Response refused = api.pay(key, Api.payment(reference, 1000, "EUR", "pm_ok"));

        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
        assertThat(refused.text("code")).isEqualTo("rate_limited");
        assertThat(Long.parseLong(refused.header("Retry-After"))).isGreaterThanOrEqualTo(1);
        assertThat(TableCounts.of(jdbc)).as("nothing stored").isEqualTo(before);
        assertThat(jdbc.sql("SELECT count(*) FROM idempotency_keys WHERE idempotency_key = :key")
                        .param("key", key)
                        .query(Long.class)
                        .single())
                .isZero();
        assertThat(recordsAtPsp(reference)).isEmpty();
        assertThat(api.get("/v1/payments?reference=" + reference).status())
                .as("reads have their own bucket")
                .isEqualTo(200);
        assertThat(meters.counter(
                                "kopek.rate_limit.refusals", "merchant", merchant, "kind", "write", "scope", "merchant")
                        .count())
                .isEqualTo(1.0);

        setLimits(merchant, "{\"writes\": null}");
        Api.Response later = api.pay(key, Api.payment(reference, 1000, "EUR", "pm_ok"));
        assertThat(later.status()).as("the refused key was never claimed").isEqualTo(201);
        assertThat(later.header("Idempotent-Replayed")).isNull();
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
    }

    @Test
    void oneMerchantsFloodDoesNotBlockAnotherMerchantsPayments() throws Exception {
        Tenant flooding = tenant();
        Api flooder = flooding.api();
        Api neighbour = newMerchant();
        setLimits(flooding.id(), "{\"writes\": " + SLOW.formatted(5) + "}");
        String floodPrefix = Api.unique("flood") + "-";
        String calmPrefix = Api.unique("calm") + "-";

        List<Integer> answers = Race.of(
                80,
                i -> i % 4 == 0
                        ? neighbour
                                .pay(Api.newKey(), Api.payment(calmPrefix + i, 700, "EUR", "pm_ok"))
                                .status()
                        : flooder.pay(Api.newKey(), Api.payment(floodPrefix + i, 700, "EUR", "pm_ok"))
                                .status());

        long neighbourCreated =
                range(answers, true).stream().filter(s -> s == 201).count();
        long flooderCreated =
                range(answers, false).stream().filter(s -> s == 201).count();
        long flooderRefused =
                range(answers, false).stream().filter(s -> s == 429).count();
        assertThat(neighbourCreated)
                .as("every one of the neighbour's 20 payments")
                .isEqualTo(20);
        assertThat(flooderCreated).as("the flooder's burst").isEqualTo(5);
        assertThat(flooderRefused).isEqualTo(55);
        assertThat(chargesWithPrefix(calmPrefix)).as("charged at the PSP").isEqualTo(20);
        assertThat(chargesWithPrefix(floodPrefix)).isEqualTo(5);
        assertThat(jdbc.sql("SELECT count(*) FROM payments WHERE reference LIKE :p")
                        .param("p", floodPrefix + "%")
                        .query(Long.class)
                        .single())
                .isEqualTo(5);
    }

    @Test
    void anAdminSetsAndResetsAMerchantsLimitsAndNobodyElseCan() {
        Tenant tenant = tenant();
        Api api = tenant.api();
        String merchant = tenant.id();
        String path = "/v1/admin/merchants/" + merchant + "/rate-limits";

        Api.Response shown = admin().get(path);
        assertThat(shown.status()).isEqualTo(200);
        assertThat(shown.json().at("/writes/default").asBoolean()).isTrue();
        Api.Response changed = put(path, "{\"reads\": {\"per_second\": 2.5, \"burst\": 7}}");
        assertThat(changed.status()).as(changed.body()).isEqualTo(200);
        assertThat(changed.json().at("/reads/per_second").asDouble()).isEqualTo(2.5);
        assertThat(changed.json().at("/reads/burst").asInt()).isEqualTo(7);
        assertThat(changed.json().at("/reads/default").asBoolean()).isFalse();
        assertThat(changed.json().at("/writes/default").asBoolean())
                .as("left out, left alone")
                .isTrue();
        assertThat(jdbc.sql("SELECT updated_by FROM merchant_rate_limits")
                        .query(String.class)
                        .list())
                .isNotEmpty();

        for (String bad : List.of(
                "{\"reads\": {\"per_second\": 0, \"burst\": 7}}",
                "{\"reads\": {\"per_second\": 1, \"burst\": 0}}",
                "{\"reads\": {\"per_second\": 1}}",
                "{\"reads\": {\"per_second\": 1, \"burst\": 1.5}}",
                "{\"reads\": 5}",
                "{\"other\": null}",
                "{\"reads\": {\"per_second\": 1e9, \"burst\": 1}}")) {
            Api.Response refused = put(path, bad);
            assertThat(refused.status()).as(bad).isEqualTo(400);
        }
        assertThat(put("/v1/admin/merchants/mer_00000000000000000000000000000000/rate-limits", "{}")
                        .status())
                .isEqualTo(404);
        assertThat(api.send(api.request(path)
                                .PUT(HttpRequest.BodyPublishers.ofString("{\"writes\": null}"))
                                .header("Content-Type", "application/json")
                                .build())
                        .status())
                .as("a merchant key on the admin route")
                .isIn(401, 403, 404);
        assertThat(put(path, "{\"reads\": null}").json().at("/reads/default").asBoolean())
                .isTrue();
    }

    private static List<Integer> range(List<Integer> answers, boolean neighbour) {
        return IntStream.range(0, answers.size())
                .filter(i -> (i % 4 == 0) == neighbour)
                .mapToObj(answers::get)
                .toList();
    }

    private static long chargesWithPrefix(String prefix) {
        return SIMULATOR.charges().stream()
                .filter(c -> c.reference() != null
                        && c.reference().startsWith(prefix)
                        && c.status().equals("succeeded"))
                .count();
    }

    private record Tenant(String id, Api api) {}

    private Tenant tenant() {
        var merchant = merchants.create("Merchant " + UUID.randomUUID());
        return new Tenant(
                merchant.id().toString(),
                new Api(baseUri(), merchants.issueKey(merchant.id()).secret()));
    }

    private void setLimits(String merchant, String body) {
        Api.Response response = put("/v1/admin/merchants/" + merchant + "/rate-limits", body);
        assertThat(response.status()).as(response.body()).isEqualTo(200);
    }

    private Api.Response put(String path, String body) {
        Api admin = admin();
        return admin.send(admin.request(path)
                .PUT(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json")
                .build());
    }
}

package dev.kopek.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The merchant feed on the plain IntegrationTest context, which has no Kafka: events are recorded and served
 * all the same.
 */
class EventFeedTest extends IntegrationTest {

    @Test
    void theFeedPagesEveryCommittedChangeOnceInAStableOrder() {
        Api api = newMerchant();
        List<String> payments = new ArrayList<>();
        for (String method : List.of("pm_ok", "pm_declined", "pm_5xx_no_charge")) {
            payments.add(api.pay(Api.newKey(), Api.payment(newReference(), 500, "EUR", method))
                    .text("id"));
        }

        List<JsonNode> seen = new ArrayList<>();
        String cursor = null;
        for (int page = 0; page < 10; page++) {
            JsonNode body = api.get("/v1/events?limit=2" + (cursor == null ? "" : "&after=" + cursor))
                    .json();
            body.get("data").forEach(seen::add);
            cursor = body.get("next_cursor").asString();
            if (!body.get("has_more").asBoolean()) {
                break;
            }
        }

        assertThat(seen)
                .extracting(e -> e.get("type").asString())
                .containsExactly(
                        "payment.created",
                        "payment.captured",
                        "payment.created",
                        "payment.declined",
                        "payment.created",
                        "payment.unknown");
        assertThat(seen)
                .extracting(e -> e.at("/resource/id").asString())
                .containsExactly(
                        payments.get(0),
                        payments.get(0),
                        payments.get(1),
                        payments.get(1),
                        payments.get(2),
                        payments.get(2));
        assertThat(seen).extracting(e -> e.get("id").asString()).doesNotHaveDuplicates();
        assertThat(rowsWhere("published_at IS NULL AND public_id IN ('" + String.join("','", payments) + "')"))
                .as("no Kafka here: recorded, never published")
                .isEqualTo(6);

        JsonNode empty = api.get("/v1/events?after=" + cursor).json();
        assertThat(empty.get("data")).isEmpty();
        assertThat(empty.get("next_cursor").asString())
                .as("polling with the same cursor")
                .isEqualTo(cursor);

        String later = api.pay(Api.newKey(), Api.payment(newReference(), 500, "EUR", "pm_ok"))
                .text("id");
        JsonNode next = api.get("/v1/events?after=" + cursor).json();
        assertThat(next.get("data"))
                .extracting(e -> e.at("/resource/id").asString())
                .containsExactly(later, later);

        assertThat(newMerchant().get("/v1/events").json().get("data"))
                .as("another merchant sees none")
                .isEmpty();
    }

    @Test
    void aBadCursorOrLimitIsA400() {
        Api api = newMerchant();
        assertThat(api.get("/v1/events?after=not-a-cursor").text("code")).isEqualTo("invalid_cursor");
        assertThat(api.get("/v1/events?after=AgAAAAAAAAAAAAAAAAAAAAA").text("code"))
                .isEqualTo("invalid_cursor");
        assertThat(api.get("/v1/events?limit=0").text("code")).isEqualTo("invalid_limit");
        assertThat(api.get("/v1/events?limit=101").text("code")).isEqualTo("invalid_limit");
        assertThat(api.get("/v1/events?limit=ten").status()).isEqualTo(400);
        assertThat(api.get("/v1/events?limit=100").status()).isEqualTo(200);
    }

    private long rowsWhere(String condition) {
        return jdbc.sql("SELECT count(*) FROM outbox WHERE " + condition)
                .query(Long.class)
                .single();
    }
}

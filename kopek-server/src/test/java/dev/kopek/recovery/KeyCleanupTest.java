package dev.kopek.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.reconciliation.KeyCleanup;
import dev.kopek.support.Api;
import dev.kopek.support.IntegrationTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class KeyCleanupTest extends IntegrationTest {

    @Autowired
    KeyCleanup cleanup;

    @Test
    void onlyCompletedKeysPastRetentionAreDeleted() {
        Api api = newMerchant();
        String completedKey = Api.newKey();
        String unknownKey = Api.newKey();
        api.pay(completedKey, Api.payment(newReference(), 100, "EUR", "pm_ok"));
        api.pay(unknownKey, Api.payment(newReference(), 100, "EUR", "pm_5xx_no_charge"));

        clock.advance(Duration.ofDays(6));
        cleanup.cleanOnce();
        assertThat(exists(completedKey)).as("inside retention").isTrue();

        clock.advance(Duration.ofDays(2));
        cleanup.cleanOnce();

        assertThat(exists(completedKey)).isFalse();
        assertThat(exists(unknownKey)).as("unfinished keys are never deleted").isTrue();
        String reference = newReference();
        Api.Response reused = api.pay(completedKey, Api.payment(reference, 100, "EUR", "pm_ok"));
        assertThat(reused.status())
                .as("past retention the key is a new operation")
                .isEqualTo(201);
        assertThat(reused.header("Idempotent-Replayed")).isNull();
        assertThat(chargesAtPsp(reference)).isEqualTo(1);
    }

    private boolean exists(String key) {
        return jdbc.sql("SELECT count(*) FROM idempotency_keys WHERE idempotency_key = :k")
                        .param("k", key)
                        .query(Long.class)
                        .single()
                == 1;
    }
}

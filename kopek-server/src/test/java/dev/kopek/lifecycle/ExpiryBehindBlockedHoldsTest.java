package dev.kopek.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.payments.AuthorizationExpiry;
import dev.kopek.support.Api;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * Issue 24, defect 3: an authorization past its expiry whose capture is still unknown cannot be closed (the capture's
 * outcome decides what is left to release), and more of them than one pass takes (a PSP outage during captures) must
 * not hide the ones that can be closed behind them.
 */
class ExpiryBehindBlockedHoldsTest extends LifecycleSupport {

    /** The reconciler's pass size (kopek.reconciler.batch-size). */
    private static final int BATCH = 100;

    @Autowired
    AuthorizationExpiry expiry;

    @Test
    void anExpiredHoldIsReleasedEvenBehindMoreThanAPassOfHoldsWhoseCaptureIsUnknown() {
        Api api = newMerchant();
        List<String> blocked = new ArrayList<>();
        for (int i = 0; i < BATCH + 1; i++) {
            JsonNode held = authorize(api, newReference(), 5_000);
            SIMULATOR.armFault("capture", held.get("psp_reference").asString(), "5xx_after_success", 1);
            assertThat(capture(api, held.get("id").asString(), "{\"amount\":1000}")
                            .status())
                    .as("the capture's outcome is unknown: the hold cannot be closed until it is known")
                    .isEqualTo(202);
            blocked.add(held.get("id").asString());
        }
        clock.advance(Duration.ofSeconds(1));
        JsonNode free = authorize(api, newReference(), 3_000);

        clock.advance(Duration.ofDays(7).plusHours(1));
        SIMULATOR.advanceClock(Duration.ofDays(7).plusHours(1));
        // Passes until one expires nothing: holds that earlier tests left in the shared database, aged by the same
        // clock, expire in them too, however many there are. Were the blocked holds to fill a pass, it would expire
        // nothing and the free hold would stay, as when the scan still returned holds blocked by an unknown capture.
        int passes = 0;
        while (expiry.expireDue(BATCH) > 0 && passes < 1_000) {
            passes++;
        }

        JsonNode after = payment(api, free.get("id").asString());
        assertThat(after.get("status").asString()).isEqualTo("expired");
        assertThat(amount(after, "amount_capturable"))
                .as("nothing held any more")
                .isZero();
        assertThat(payment(api, blocked.getFirst()).get("status").asString())
                .as("a hold whose capture is unknown waits for the capture")
                .isEqualTo("authorized");
    }
}

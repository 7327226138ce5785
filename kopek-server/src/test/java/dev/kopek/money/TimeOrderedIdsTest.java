package dev.kopek.money;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.support.Race;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class TimeOrderedIdsTest {

    /** The id's first 64 bits as PostgreSQL's uuid order compares them: unsigned. */
    private static int compareAsStored(UUID a, UUID b) {
        return Long.compareUnsigned(a.getMostSignificantBits(), b.getMostSignificantBits());
    }

    private static long millisOf(UUID id) {
        return id.getMostSignificantBits() >>> 16;
    }

    @Test
    void idsMadeInOneMillisecondKeepTheOrderTheyWereMadeIn() {
        Clock frozen = Clock.fixed(Instant.now(), ZoneOffset.UTC);
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            ids.add(TimeOrderedIds.next(frozen));
        }
        for (int i = 1; i < ids.size(); i++) {
            assertThat(compareAsStored(ids.get(i - 1), ids.get(i)))
                    .as("id %d after id %d", i, i - 1)
                    .isNegative();
        }
        // 10,000 ids cannot fit one millisecond's 4,096 counter values: the rest borrow the next milliseconds.
        assertThat(millisOf(ids.getLast()) - millisOf(ids.getFirst())).isBetween(2L, 3L);
    }

    @Test
    void anIdCarriesItsClocksMillisecondAndTheVersionSevenLayout() {
        long ahead = millisOf(TimeOrderedIds.next(Clock.systemUTC())) + 1_000;
        UUID id = TimeOrderedIds.next(Clock.fixed(Instant.ofEpochMilli(ahead), ZoneOffset.UTC));
        assertThat(millisOf(id)).isEqualTo(ahead);
        assertThat(id.version()).isEqualTo(7);
        assertThat(id.variant()).isEqualTo(2);
    }

    @Test
    void aClockThatStepsBackDoesNotBreakTheOrder() {
        long now = millisOf(TimeOrderedIds.next(Clock.systemUTC())) + 2_000;
        UUID later = TimeOrderedIds.next(Clock.fixed(Instant.ofEpochMilli(now), ZoneOffset.UTC));
        UUID afterStepBack = TimeOrderedIds.next(Clock.fixed(Instant.ofEpochMilli(now - 60_000), ZoneOffset.UTC));
        assertThat(compareAsStored(later, afterStepBack)).isNegative();
    }

    @Test
    void threadsReleasedTogetherGetDistinctIdsEachInIncreasingOrder() throws Exception {
        Clock frozen = Clock.fixed(Instant.now(), ZoneOffset.UTC);
        List<List<UUID>> perThread = Race.of(16, i -> {
            List<UUID> mine = new ArrayList<>();
            for (int n = 0; n < 2_000; n++) {
                mine.add(TimeOrderedIds.next(frozen));
            }
            return mine;
        });
        Set<Long> stamps = new HashSet<>();
        for (List<UUID> mine : perThread) {
            for (int n = 0; n < mine.size(); n++) {
                assertThat(stamps.add(mine.get(n).getMostSignificantBits()))
                        .as("a time and counter no other id has")
                        .isTrue();
                if (n > 0) {
                    assertThat(compareAsStored(mine.get(n - 1), mine.get(n))).isNegative();
                }
            }
        }
        assertThat(stamps).hasSize(16 * 2_000);
    }
}

package dev.kopek.disputes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kopek.outbox.EventTypes;
import dev.kopek.support.Gen;
import dev.kopek.support.Property;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Random sequences of PSP outcomes over the dispute and inquiry tables, moved as their stores move them: a
 * compare-and-set whose WHERE clause is {@code predecessorsOf} the target. The compare-and-set moves exactly what the
 * table allows, a final state is never left, each move is announced once with a type from the catalogue, and the
 * version (the event sequence) moves only with an announced change.
 */
class DisputeTransitionPropertyTest {

    @Test
    void aDisputeMovesOnlyAsItsTableSaysAndAnnouncesEachMoveOnce() {
        Property.check(500, Gen.of(DisputeStatus.class).list(1, 10), this::disputeMovesAsItsTableSays);
    }

    private void disputeMovesAsItsTableSays(List<DisputeStatus> outcomes) {
        DisputeStatus status = DisputeStatus.OPEN;
        int version = 0;
        List<String> announced = new ArrayList<>(List.of(status.eventType()));
        for (DisputeStatus next : outcomes) {
            boolean moved = DisputeStatus.predecessorsOf(next).contains(status);
            assertThat(moved).as("%s -> %s", status, next).isEqualTo(status.canMoveTo(next));
            if (status.isFinal()) {
                assertThat(moved).as("%s is final", status).isFalse();
            }
            if (moved) {
                status = next;
                version++;
                announced.add(next.eventType());
            }
        }
        assertThat(announced)
                .hasSize(version + 1)
                .doesNotHaveDuplicates()
                .allSatisfy(
                        type -> assertThat(EventTypes.isKnown(type)).as(type).isTrue());
        assertThat(announced.getFirst()).isEqualTo("dispute.opened");
    }

    /** Where an inquiry starts (open, or closed first by a late notification) and what it is told next. */
    record InquiryLife(boolean closingFirst, List<InquiryStatus> moves) {}

    @Test
    void anInquiryMovesOnlyAsItsTableSaysAndItsVersionMovesOnlyWithAnAnnouncedChange() {
        Gen<Boolean> closingFirst = Gen.booleans();
        Gen<List<InquiryStatus>> moves = Gen.of(InquiryStatus.class).list(1, 10);
        Property.check(
                500,
                c -> new InquiryLife(closingFirst.draw(c), moves.draw(c)),
                life -> inquiryMovesAsItsTableSays(life.closingFirst(), life.moves()));
    }

    private void inquiryMovesAsItsTableSays(boolean closingFirst, List<InquiryStatus> moves) {
        InquiryStatus status = closingFirst ? InquiryStatus.CLOSED : InquiryStatus.OPEN;
        int version = 0;
        List<String> announced = new ArrayList<>();
        status.eventType().ifPresent(announced::add);
        for (InquiryStatus next : moves) {
            boolean moved = InquiryStatus.predecessorsOf(next).contains(status);
            assertThat(moved).as("%s -> %s", status, next).isEqualTo(status.canMoveTo(next));
            if (status.isFinal()) {
                assertThat(moved).as("%s is final", status).isFalse();
            }
            if (moved) {
                status = next;
                if (next.eventType().isPresent()) {
                    version++;
                    announced.add(next.eventType().get());
                }
            }
        }
        assertThat(announced)
                .hasSize(version + 1)
                .doesNotHaveDuplicates()
                .allSatisfy(
                        type -> assertThat(EventTypes.isKnown(type)).as(type).isTrue());
    }

    /** The final states are these and no others: a table edit that reopens one fails here first. */
    @Test
    void finalStatesAreExactlyThese() {
        assertThat(Arrays.stream(DisputeStatus.values()).filter(DisputeStatus::isFinal))
                .containsExactlyInAnyOrder(DisputeStatus.WON, DisputeStatus.LOST);
        assertThat(Arrays.stream(InquiryStatus.values()).filter(InquiryStatus::isFinal))
                .containsExactly(InquiryStatus.ESCALATED);
        assertThat(DisputeStatus.predecessorsOf(DisputeStatus.OPEN))
                .as("a dispute is only ever born open")
                .isEmpty();
    }
}

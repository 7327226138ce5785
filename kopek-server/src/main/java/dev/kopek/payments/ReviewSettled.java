package dev.kopek.payments;

import java.util.UUID;

/**
 * Published inside the settling transaction when an outcome parked for a person is settled by the machine after
 * all (a PSP notification brought it): the open review item of that subject is closed with the same outcome.
 *
 * @param subject {@code payment}, {@code capture}, {@code void} or {@code refund}
 * @param resolution what was recorded: {@code captured}, {@code authorized}, {@code failed} or {@code succeeded}
 */
public record ReviewSettled(String subject, UUID subjectId, String resolution) {
}

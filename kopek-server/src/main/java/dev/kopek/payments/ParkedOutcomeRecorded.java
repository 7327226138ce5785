package dev.kopek.payments;

import java.util.UUID;

/**
 * Published inside phase 3's transaction when an outcome parked for a person is recorded after all (a PSP
 * notification brought it, or a person decided it): the open review item of that subject is closed with it.
 *
 * @param subject {@code payment}, {@code capture}, {@code void} or {@code refund}
 * @param resolution what was recorded: {@code captured}, {@code authorized}, {@code failed} or {@code succeeded}
 */
public record ParkedOutcomeRecorded(String subject, UUID subjectId, String resolution) {}

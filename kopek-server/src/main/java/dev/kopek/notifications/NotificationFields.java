package dev.kopek.notifications;

import dev.kopek.platform.InputText;
import dev.kopek.psp.ChargeOutcome;
import dev.kopek.psp.PspNotification;

/**
 * A signed notification is authentic, not necessarily storable: every field Kopek keeps or acts on must fit its
 * column and be free of control characters, or the insert (or every later attempt to apply it) fails. Checked
 * after the signature and before anything is stored, for any provider.
 */
final class NotificationFields {

    /** Larger than any real payment and far from overflowing a sum of a few of them. */
    static final long MAX_AMOUNT_MINOR = 1_000_000_000_000_000L;

    private NotificationFields() {}

    /** Why this notification cannot be stored, or null when it can. */
    static NotificationInbox.Receipt.Malformed unfit(PspNotification n) {
        String field = firstUnfit(n);
        return field == null
                ? null
                : new NotificationInbox.Receipt.Malformed(field, "is missing, too long or holds a control character");
    }

    private static String firstUnfit(PspNotification n) {
        if (!fits(n.eventId(), 128, true)) {
            return "id";
        }
        if (!fits(n.type(), 64, true)) {
            return "type";
        }
        if (!fits(n.objectId(), 128, false)) {
            return "data.id";
        }
        if (!fits(n.chargeId(), 128, false)) {
            return "data.charge_id";
        }
        if (!fits(n.providerKey(), 128, false)) {
            return "data.idempotency_key";
        }
        if (!fits(n.reason(), 200, false)) {
            return "data.reason";
        }
        if (n.currency() != null && !n.currency().matches("[A-Z]{3}")) {
            return "data.currency";
        }
        if (n.amountMinor() < 0 || n.amountMinor() > MAX_AMOUNT_MINOR) {
            return "data.amount";
        }
        if (n.outcome() instanceof ChargeOutcome.Declined declined && !fits(declined.declineCode(), 64, false)) {
            return "data.decline_code";
        }
        return null;
    }

    private static boolean fits(String value, int maxLength, boolean required) {
        if (value == null) {
            return !required;
        }
        return !(required && value.isEmpty()) && value.length() <= maxLength && InputText.isClean(value);
    }
}

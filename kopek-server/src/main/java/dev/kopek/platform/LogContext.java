package dev.kopek.platform;

import java.util.regex.Pattern;
import org.slf4j.MDC;

/**
 * The names of the fields every log line on the payment path carries (SLF4J MDC), in one place so the text
 * pattern, the JSON formats and the tests agree. Values are identifiers only: never a raw key, token or card.
 */
public final class LogContext {

    public static final String REQUEST_ID = "request_id";
    public static final String MERCHANT = "merchant_id";
    public static final String KEY_HASH = "key_hash";
    public static final String ATTEMPT = "attempt";
    public static final String PAYMENT = "payment_id";
    public static final String OPERATION = "operation_id";
    public static final String PSP_REFERENCE = "psp_reference";

    /** What a caller may send as {@code X-Request-Id}: short, printable, no spaces or separators to forge lines. */
    private static final Pattern REQUEST_ID_SHAPE = Pattern.compile("[A-Za-z0-9._:@/+=-]{1,128}");

    private LogContext() {}

    public static boolean isValidRequestId(String candidate) {
        return candidate != null && REQUEST_ID_SHAPE.matcher(candidate).matches();
    }

    /** Adds a field to this thread's log context; a null value leaves the field as it was. */
    public static void put(String field, Object value) {
        if (value != null) {
            MDC.put(field, value.toString());
        }
    }

    public static String requestId() {
        return MDC.get(REQUEST_ID);
    }

    /** Forgets the payment-path fields (a worker moving on to the next item keeps no stale ids). */
    public static void clearPaymentFields() {
        for (String field : new String[] {MERCHANT, KEY_HASH, ATTEMPT, PAYMENT, OPERATION, PSP_REFERENCE}) {
            MDC.remove(field);
        }
    }
}

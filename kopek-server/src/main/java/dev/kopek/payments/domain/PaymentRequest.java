package dev.kopek.payments.domain;

import dev.kopek.money.Money;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/** A validated request to pay: the business fields only, from which the fingerprint is computed. */
public record PaymentRequest(
        String reference,
        Money amount,
        String paymentMethod,
        String captureMethod,
        String description,
        SortedMap<String, String> metadata) {

    public PaymentRequest {
        Objects.requireNonNull(reference, "reference");
        Objects.requireNonNull(amount, "amount");
        Objects.requireNonNull(paymentMethod, "paymentMethod");
        Objects.requireNonNull(captureMethod, "captureMethod");
        metadata = metadata == null ? null : new TreeMap<>(metadata);
    }

    /**
     * The canonical fields in a fixed order; metadata as sorted key/value pairs, each length-prefixed by
     * {@code Fingerprint}. Amount in minor units, so 10.00 and 1000 cannot both appear.
     */
    public String[] canonicalFields() {
        int pairs = metadata == null ? 0 : metadata.size();
        String[] fields = new String[7 + 2 * pairs];
        fields[0] = reference;
        fields[1] = Long.toString(amount.minor());
        fields[2] = amount.currency().code();
        fields[3] = paymentMethod;
        fields[4] = captureMethod;
        fields[5] = description;
        fields[6] = metadata == null ? null : Integer.toString(pairs);
        int i = 7;
        if (metadata != null) {
            for (Map.Entry<String, String> entry : metadata.entrySet()) {
                fields[i++] = entry.getKey();
                fields[i++] = entry.getValue();
            }
        }
        return fields;
    }
}

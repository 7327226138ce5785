package dev.kopek.ledger;

import dev.kopek.ledger.domain.FeeRule;
import dev.kopek.money.MerchantId;
import java.time.Instant;

/** A merchant's fee schedule in one currency. */
public record Fee(MerchantId merchant, String currency, FeeRule rule, Instant updatedAt) {}

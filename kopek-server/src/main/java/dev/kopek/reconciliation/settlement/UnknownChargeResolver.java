package dev.kopek.reconciliation.settlement;

import dev.kopek.idempotency.IdempotencyKeys;
import dev.kopek.money.PaymentId;
import dev.kopek.payments.PaymentService;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * A charge the PSP settled that Kopek has no object for is most often one of Kopek's own attempts whose outcome was
 * lost (L5: unknown). The PSP names the provider key behind the charge; if that key is one of Kopek's unknown (or
 * abandoned) payments, the payment is taken over through the same fenced path the stuck-attempt reconciler uses
 * ({@link PaymentService#recover}), which asks the PSP by key and settles it. Nothing is charged anew: the charge
 * exists, so the lookup finds it. When the take-over is not possible yet (the grace or lease has not run out, another
 * worker owns it, it waits for a person), the break stays open and the next pass asks again.
 *
 * <p>Runs after the pass's transaction has committed: PSP calls never happen inside a transaction (L3).
 */
@Component
class UnknownChargeResolver {

    private static final Logger log = LoggerFactory.getLogger(UnknownChargeResolver.class);

    private final ReconBreaks breaks;
    private final PaymentService payments;
    private final IdempotencyKeys keys;
    private final JdbcClient jdbc;
    private final SettlementProperties properties;

    UnknownChargeResolver(
            ReconBreaks breaks,
            PaymentService payments,
            IdempotencyKeys keys,
            JdbcClient jdbc,
            SettlementProperties properties) {
        this.breaks = breaks;
        this.payments = payments;
        this.keys = keys;
        this.jdbc = jdbc;
        this.properties = properties;
    }

    /** Returns how many of the account's open missing charges of the date it resolved. */
    int resolve(SettlementAccount account, LocalDate date) {
        int resolved = 0;
        for (ReconBreak open : breaks.openMissingCharges(account.provider(), date, properties.resolveBatchSize())) {
            try {
                if (resolve(account, open)) {
                    resolved++;
                }
            } catch (RuntimeException e) {
                // The break stays open; the next pass of its date tries again.
                log.error("settlement: resolving charge {} failed; it stays open", open.pspReference(), e);
            }
        }
        return resolved;
    }

    private boolean resolve(SettlementAccount account, ReconBreak open) {
        Optional<Attempt> attempt =
                account.psp().providerKeyOf(open.pspReference()).flatMap(key -> attemptByProviderKey(account, key));
        if (attempt.isEmpty()) {
            return false;
        }
        breaks.attribute(
                open.id(),
                attempt.get().id(),
                attempt.get().merchant(),
                attempt.get().status());
        if (!attempt.get().settledAs(open.pspReference()) && attempt.get().unfinished()) {
            keys.findUnfinishedByResource(
                            PaymentService.OPERATION, attempt.get().id())
                    .ifPresent(payments::recover);
            attempt = attemptById(attempt.get().id());
        }
        if (attempt.isEmpty() || !attempt.get().settledAs(open.pspReference())) {
            log.info(
                    "settlement: charge {} belongs to payment {} ({}), not settled yet; the break stays open",
                    open.pspReference(),
                    attempt.map(Attempt::id).orElse(null),
                    attempt.map(Attempt::status).orElse(null));
            return false;
        }
        boolean closed = breaks.resolve(
                open.id(),
                "the charge belonged to an unknown attempt of payment "
                        + new PaymentId(attempt.get().id()) + ", now settled as "
                        + attempt.get().status()
                        + " through the fenced take-over");
        if (closed) {
            log.info(
                    "settlement: charge {} resolved payment {} as {}",
                    open.pspReference(),
                    attempt.get().id(),
                    attempt.get().status());
        }
        return closed;
    }

    /** The payment row as this resolver needs it; read directly, as the matching statement does. */
    private record Attempt(UUID id, UUID merchant, String status, String pspReference, long amountCaptured) {

        boolean settledAs(String reference) {
            return reference.equals(pspReference) && amountCaptured > 0;
        }

        boolean unfinished() {
            return status.equals("UNKNOWN") || status.equals("PENDING");
        }
    }

    /** The payment behind a provider key, only if the account that reported the charge holds it (L11). */
    private Optional<Attempt> attemptByProviderKey(SettlementAccount account, String providerKey) {
        return jdbc.sql("""
                SELECT id, merchant_id, status, psp_reference, amount_captured FROM published_payments
                 WHERE provider_key = :key
                   AND (CAST(:merchant AS UUID) IS NULL AND psp_account IS NULL
                        OR merchant_id = CAST(:merchant AS UUID) AND psp_account = :account)
                """)
                .param("key", providerKey)
                .param("merchant", account.merchant().map(m -> m.value()).orElse(null), java.sql.Types.OTHER)
                .param("account", account.pspAccount(), java.sql.Types.VARCHAR)
                .query(UnknownChargeResolver::attempt)
                .optional();
    }

    private Optional<Attempt> attemptById(UUID id) {
        return jdbc.sql(
                        "SELECT id, merchant_id, status, psp_reference, amount_captured FROM published_payments WHERE id = :id")
                .param("id", id)
                .query(UnknownChargeResolver::attempt)
                .optional();
    }

    private static Attempt attempt(ResultSet rs, int row) throws SQLException {
        return new Attempt(
                rs.getObject("id", UUID.class),
                rs.getObject("merchant_id", UUID.class),
                rs.getString("status"),
                rs.getString("psp_reference"),
                rs.getLong("amount_captured"));
    }
}

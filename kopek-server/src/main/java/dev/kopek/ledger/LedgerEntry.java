package dev.kopek.ledger;

import dev.kopek.ledger.domain.AccountType;
import dev.kopek.ledger.domain.Side;

/**
 * One entry of a journal transaction as stored: its line, its account (of the transaction's merchant, or the
 * platform's), side and amount.
 */
public record LedgerEntry(
        int line, long accountId, AccountType account, Side side, long amountMinor, String currency) {}

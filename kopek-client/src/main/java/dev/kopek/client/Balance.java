package dev.kopek.client;

import java.util.List;

/** The merchant's balances per currency, in minor units. */
public record Balance(List<Amount> available, List<Amount> pending, List<Amount> held) {

    public record Amount(long amount, String currency) {}
}

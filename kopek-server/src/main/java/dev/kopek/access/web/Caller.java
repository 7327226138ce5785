package dev.kopek.access.web;

import dev.kopek.money.MerchantId;

/** Who the bearer token says the caller is. Nothing else (body, path, header) can make a caller. */
sealed interface Caller {

    /** A merchant's live API key. */
    record Merchant(MerchantId merchant) implements Caller {}

    /** A named admin identity ({@code adm_…}), or {@code KOPEK_ADMIN_TOKEN} as {@code adm_bootstrap}. */
    record Admin(String id, String name) implements Caller {}
}

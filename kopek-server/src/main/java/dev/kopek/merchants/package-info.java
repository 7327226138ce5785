/**
 * Merchants and their secret API keys (stored only as digests), merchant authentication for {@code /v1/**},
 * the admin token for {@code /v1/admin/**} and {@code /v1/ops/**}, and the demo merchant of the quickstart.
 */
@org.springframework.modulith.ApplicationModule(displayName = "Merchants")
package dev.kopek.merchants;

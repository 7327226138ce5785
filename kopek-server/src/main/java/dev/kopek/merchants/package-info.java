/**
 * Merchants and their secret API keys (stored only as digests), and the demo merchant of the quickstart. Who may
 * call which route is decided in {@code dev.kopek.access}.
 */
@org.springframework.modulith.ApplicationModule(displayName = "Merchants")
package dev.kopek.merchants;

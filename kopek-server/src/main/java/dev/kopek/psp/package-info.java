/**
 * The PSP port: what Kopek asks of an acquirer, and outcomes classified by meaning (L5). One sub-package per
 * adapter; {@code simulator} talks to the bundled acquirer simulator.
 */
@org.springframework.modulith.ApplicationModule(displayName = "PSP port")
package dev.kopek.psp;

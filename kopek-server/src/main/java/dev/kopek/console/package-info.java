/**
 * The operator console and the operations read model behind it and behind the metrics: what is stuck, what waits
 * for a person, how far behind the event consumers are. Reads other modules' tables with plain SQL (a read
 * model); every action goes through the owning module's service, the same one the admin API calls.
 */
@org.springframework.modulith.ApplicationModule(displayName = "Operator console")
package dev.kopek.console;

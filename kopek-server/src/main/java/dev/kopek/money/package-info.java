/** Money in minor units, ISO 4217 currencies, typed ids and the application clock. Depends on nothing. */
@org.springframework.modulith.ApplicationModule(displayName = "Money and ids")
package dev.kopek.money;

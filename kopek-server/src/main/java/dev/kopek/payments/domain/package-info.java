/** The payment as a value and its state machine; free of Spring and SQL. Other modules may read these types. */
@org.springframework.modulith.NamedInterface("domain")
package dev.kopek.payments.domain;

package dev.kopek.access.web;

import dev.kopek.platform.Problems;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * The firewall checks some headers and parameters only when code reads them, which may be inside a handler; the
 * refusal is then the same 400 {@code request_rejected} as at the door, not a 500.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
class FirewallRefusals {

    @ExceptionHandler(RequestRejectedException.class)
    ResponseEntity<String> rejected(RequestRejectedException e) {
        return ResponseEntity.status(HttpStatus.BAD_REQUEST)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(Problems.json(
                        400,
                        "request_rejected",
                        "The request's headers or parameters are not in a form" + " Kopek accepts."));
    }
}

package dev.kopek.platform;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The problems a handler can answer besides those every route of its kind answers. The OpenAPI document declares,
 * on each route, every status and code the route can answer: the framework's (a malformed request, an internal
 * error, an unavailable database), its {@link Audience}'s (401, 403, 429), its {@code Idempotency-Key}'s (409
 * {@code request_in_progress}, 422 {@code idempotency_key_reused}), its path's ({@code 404 not_found}), and these.
 * A code is declared under every status the catalogue gives it. The tests fail on an answer whose status or code
 * its route does not declare, and on a code a controller's source produces that none of its handlers declares.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface ProblemCodes {

    /** The handler's own codes; on the class, codes every handler of the controller can answer. */
    ProblemCode[] value() default {};

    /** The handler reads a JSON object body ({@link JsonBodies}) and answers that reader's refusals. */
    boolean jsonBody() default false;
}

package dev.kopek.apidocs;

import dev.kopek.platform.Audience;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.method.HandlerMethod;
import org.springdoc.core.customizers.OperationCustomizer;

/**
 * What each handler's declarations say about its contract: who may call it (its {@link Audience}), whether it takes
 * an {@code Idempotency-Key} (and so may answer {@code 409 request_in_progress} with {@code Retry-After} and
 * {@code 422 idempotency_key_reused}), whether merchant rate limits apply ({@code 429} with {@code Retry-After}),
 * and which problem responses follow from that.
 */
final class ContractOperations implements OperationCustomizer {

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    @Override
    public Operation customize(Operation operation, HandlerMethod handler) {
        Audience.Kind audience = audience(handler);
        operation.addExtension("x-audience", audience.name().toLowerCase(Locale.ROOT));
        operation.setSecurity(switch (audience) {
            case MERCHANT -> List.of(new SecurityRequirement().addList("apiKey"));
            case ADMIN -> List.of(new SecurityRequirement().addList("adminToken"));
            case PUBLIC, PSP_WEBHOOK -> List.of();
            // Console pages are excluded from the document (springdoc.paths-to-exclude); a session cookie is no
            // scheme an API client could use, so none is named should one ever be listed.
            case CONSOLE -> List.of();
        });
        ApiResponses responses = operation.getResponses() == null ? new ApiResponses() : operation.getResponses();
        if (takesIdempotencyKey(handler)) {
            if (operation.getParameters() != null) {
                operation.getParameters().removeIf(p -> "header".equals(p.getIn())
                        && IDEMPOTENCY_KEY.equalsIgnoreCase(p.getName()));
            }
            operation.addParametersItem(new Parameter().$ref("#/components/parameters/IdempotencyKey"));
            responses.addApiResponse("409", problem("InProgressOrConflict"));
            responses.addApiResponse("422", problem("KeyReused"));
        }
        if (audience != Audience.Kind.PUBLIC) {
            responses.addApiResponse("400", problem("BadRequest"));
            responses.addApiResponse("401", problem("Unauthorized"));
            responses.addApiResponse("500", problem("ServerError"));
            responses.addApiResponse("503", problem("Unavailable"));
        }
        if (audience == Audience.Kind.MERCHANT || audience == Audience.Kind.ADMIN) {
            responses.addApiResponse("403", problem("Forbidden"));
        }
        if (audience == Audience.Kind.MERCHANT) {
            responses.addApiResponse("429", problem("RateLimited"));
        }
        if (hasPathVariables(handler)) {
            responses.addApiResponse("404", problem("NotFound"));
        }
        operation.setResponses(responses);
        return operation;
    }

    static Audience.Kind audience(HandlerMethod handler) {
        Audience declared = AnnotationUtils.findAnnotation(handler.getMethod(), Audience.class);
        if (declared == null) {
            declared = AnnotationUtils.findAnnotation(handler.getBeanType(), Audience.class);
        }
        // An undeclared handler is closed to everybody; documenting it as public would be a lie, so it is a
        // merchant route here and AudienceDeclarationTest fails the build anyway.
        return declared == null ? Audience.Kind.MERCHANT : declared.value();
    }

    private static boolean takesIdempotencyKey(HandlerMethod handler) {
        return Arrays.stream(handler.getMethodParameters()).map(p -> p.getParameterAnnotation(RequestHeader.class))
                .anyMatch(h -> h != null && (IDEMPOTENCY_KEY.equals(h.name()) || IDEMPOTENCY_KEY.equals(h.value())));
    }

    private static boolean hasPathVariables(HandlerMethod handler) {
        return Arrays.stream(handler.getMethodParameters()).anyMatch(p -> p.hasParameterAnnotation(PathVariable.class));
    }

    private static ApiResponse problem(String name) {
        return new ApiResponse().$ref("#/components/responses/" + name);
    }
}

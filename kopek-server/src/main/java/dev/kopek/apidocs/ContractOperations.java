package dev.kopek.apidocs;

import dev.kopek.platform.Audience;
import dev.kopek.platform.ProblemCode;
import dev.kopek.platform.ProblemCodes;
import dev.kopek.platform.Problems;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.examples.Example;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springframework.core.MethodParameter;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.method.HandlerMethod;

/**
 * What each handler's declarations say about its contract: who may call it (its {@link Audience}), whether it takes
 * an {@code Idempotency-Key} (and so may answer {@code 409 request_in_progress} with {@code Retry-After} and
 * {@code 422 idempotency_key_reused}), whether merchant rate limits apply ({@code 429} with {@code Retry-After}),
 * and, from those and its {@link ProblemCodes}, every problem status it can answer with the codes each may carry.
 */
final class ContractOperations implements OperationCustomizer {

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    /**
     * What any route can answer, whatever it is: the firewall's and the request guard's refusals of a malformed
     * request line, header or query (before routing), an unexpected failure, a database that cannot be reached.
     */
    static final Set<ProblemCode> EVERY_ROUTE = EnumSet.of(
            ProblemCode.REQUEST_REJECTED,
            ProblemCode.BAD_REQUEST,
            ProblemCode.INVALID_CHARACTERS,
            ProblemCode.INVALID_ENCODING,
            ProblemCode.INVALID_QUERY,
            ProblemCode.INTERNAL_ERROR,
            ProblemCode.SERVICE_UNAVAILABLE,
            ProblemCode.DATABASE_UNAVAILABLE);
    /** The refusals of {@code JsonBodies} and {@code InputText}, for a handler that reads a JSON object. */
    static final Set<ProblemCode> JSON_BODY = EnumSet.of(
            ProblemCode.INVALID_JSON,
            ProblemCode.UNREADABLE_BODY,
            ProblemCode.INVALID_ENCODING,
            ProblemCode.INVALID_CHARACTERS,
            ProblemCode.CARD_DATA_NOT_ACCEPTED,
            ProblemCode.BODY_TOO_LARGE,
            ProblemCode.UNKNOWN_FIELD,
            ProblemCode.UNSUPPORTED_MEDIA_TYPE);

    static final Set<ProblemCode> KEYED = EnumSet.of(
            ProblemCode.MISSING_IDEMPOTENCY_KEY,
            ProblemCode.INVALID_IDEMPOTENCY_KEY,
            ProblemCode.REQUEST_IN_PROGRESS,
            ProblemCode.IDEMPOTENCY_KEY_REUSED);
    /** A route that needs credentials, and one whose caller may also be refused the route itself. */
    private static final Set<ProblemCode> CLOSED = EnumSet.of(ProblemCode.ROUTE_CLOSED, ProblemCode.FORBIDDEN);

    @Override
    public Operation customize(Operation operation, HandlerMethod handler) {
        Audience.Kind audience = audience(handler);
        operation.addExtension("x-audience", audience.name().toLowerCase(Locale.ROOT));
        operation.setSecurity(
                switch (audience) {
                    case MERCHANT -> List.of(new SecurityRequirement().addList("apiKey"));
                    case ADMIN -> List.of(new SecurityRequirement().addList("adminToken"));
                    case PUBLIC, PSP_WEBHOOK -> List.of();
                    // Console pages are excluded from the document (springdoc.paths-to-exclude); a session cookie is no
                    // scheme an API client could use, so none is named should one ever be listed.
                    case CONSOLE -> List.of();
                });
        if (takesIdempotencyKey(handler.getMethodParameters()) && operation.getParameters() != null) {
            operation
                    .getParameters()
                    .removeIf(p -> "header".equals(p.getIn()) && IDEMPOTENCY_KEY.equalsIgnoreCase(p.getName()));
        }
        if (takesIdempotencyKey(handler.getMethodParameters())) {
            operation.addParametersItem(new Parameter().$ref("#/components/parameters/IdempotencyKey"));
        }
        ApiResponses responses = operation.getResponses() == null ? new ApiResponses() : operation.getResponses();
        problems(handler.getBeanType(), handler.getMethod())
                .forEach(
                        (status, codes) -> responses.addApiResponse(Integer.toString(status), response(status, codes)));
        operation.setResponses(responses);
        return operation;
    }

    /** Every problem status the handler can answer, with the codes each can carry, in the catalogue's order. */
    static Map<Integer, Set<ProblemCode>> problems(Class<?> controller, Method method) {
        Set<ProblemCode> codes = EnumSet.copyOf(EVERY_ROUTE);
        Audience.Kind audience = audience(controller, method);
        if (audience == Audience.Kind.MERCHANT) {
            codes.addAll(
                    EnumSet.of(ProblemCode.MISSING_API_KEY, ProblemCode.INVALID_API_KEY, ProblemCode.RATE_LIMITED));
            codes.addAll(CLOSED);
        } else if (audience == Audience.Kind.ADMIN) {
            codes.addAll(EnumSet.of(ProblemCode.MISSING_API_KEY, ProblemCode.INVALID_ADMIN_TOKEN));
            codes.addAll(CLOSED);
        }
        MethodParameter[] parameters = parameters(method);
        if (takesIdempotencyKey(parameters)) {
            codes.addAll(KEYED);
        }
        if (Arrays.stream(parameters).anyMatch(p -> p.hasParameterAnnotation(PathVariable.class))) {
            codes.add(ProblemCode.NOT_FOUND);
        }
        for (ProblemCodes declared : new ProblemCodes[] {
            AnnotationUtils.findAnnotation(controller, ProblemCodes.class),
            AnnotationUtils.findAnnotation(method, ProblemCodes.class)
        }) {
            if (declared != null) {
                codes.addAll(Arrays.asList(declared.value()));
                if (declared.jsonBody()) {
                    codes.addAll(JSON_BODY);
                }
            }
        }
        Map<Integer, Set<ProblemCode>> byStatus = new TreeMap<>();
        for (ProblemCode code : codes) {
            code.statuses()
                    .forEach(status -> byStatus.computeIfAbsent(status, s -> EnumSet.noneOf(ProblemCode.class))
                            .add(code));
        }
        return byStatus;
    }

    /**
     * A problem answer whose {@code code} is one of {@code codes}: the document says which, so a client can tell
     * {@code 409 request_in_progress} (retry) from a state conflict (look up) before it meets either.
     */
    private static ApiResponse response(int status, Set<ProblemCode> codes) {
        StringBuilder description = new StringBuilder();
        for (ProblemCode code : codes) {
            description
                    .append(description.isEmpty() ? "" : "\n")
                    .append("- `")
                    .append(code.code())
                    .append("` (")
                    .append(code.action().apiName())
                    .append("): ")
                    .append(code.meaning());
        }
        Schema<Object> code = new Schema<>();
        code.setEnum(new ArrayList<>(codes.stream().map(ProblemCode::code).toList()));
        Schema<Object> narrowed = new Schema<>();
        narrowed.addProperty("code", code);
        Schema<Object> schema = new Schema<>();
        schema.setAllOf(List.of(new Schema<>().$ref("#/components/schemas/Problem"), narrowed));
        MediaType media = new MediaType().schema(schema);
        for (ProblemCode problem : codes) {
            media.addExamples(
                    problem.code(), new Example().$ref("#/components/examples/" + exampleName(problem, status)));
        }
        ApiResponse response = new ApiResponse()
                .description(description.toString())
                .content(new Content().addMediaType("application/problem+json", media));
        if (codes.stream()
                .anyMatch(c -> c == ProblemCode.REQUEST_IN_PROGRESS
                        || c == ProblemCode.RATE_LIMITED
                        || c == ProblemCode.PSP_UNAVAILABLE
                        || c == ProblemCode.DATABASE_UNAVAILABLE)) {
            response.addHeaderObject("Retry-After", new Header().$ref("#/components/headers/RetryAfter"));
        }
        if (status == 401 && codes.stream().anyMatch(c -> c != ProblemCode.INVALID_SIGNATURE)) {
            Schema<String> challenge = new Schema<>();
            challenge.addType("string");
            response.addHeaderObject("WWW-Authenticate", new Header().schema(challenge));
        }
        return response;
    }

    /** The name of the example of {@code code} answered with {@code status} in the document's components. */
    static String exampleName(ProblemCode code, int status) {
        return code.statuses().size() == 1 ? code.code() : code.code() + "_" + status;
    }

    /**
     * Every problem answer's example, one per code and status, shared by the responses that list the code: the
     * body {@link Problems#json} writes (type, title, status, detail, code, request_id), with the catalogue's
     * meaning as its detail, so a route's 404 shows a 404 and its 409 the codes it can carry.
     */
    static Map<String, Example> problemExamples() {
        Map<String, Example> examples = new TreeMap<>();
        for (ProblemCode code : ProblemCode.values()) {
            for (int status : code.statuses()) {
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("type", Problems.TYPE_BASE + code.code());
                body.put("title", code.code().replace('_', ' '));
                body.put("status", status);
                body.put("detail", code.meaning());
                body.put("code", code.code());
                body.put("request_id", "req_5f0c2b7e9d1a4c3b8e6f7a21");
                examples.put(
                        exampleName(code, status),
                        new Example()
                                .summary(status + " " + code.code() + " ("
                                        + code.action().apiName() + ")")
                                .value(body));
            }
        }
        return examples;
    }

    static Audience.Kind audience(HandlerMethod handler) {
        return audience(handler.getBeanType(), handler.getMethod());
    }

    private static Audience.Kind audience(Class<?> controller, Method method) {
        Audience declared = AnnotationUtils.findAnnotation(method, Audience.class);
        if (declared == null) {
            declared = AnnotationUtils.findAnnotation(controller, Audience.class);
        }
        // An undeclared handler is closed to everybody; documenting it as public would be a lie, so it is a
        // merchant route here and AudienceDeclarationTest fails the build anyway.
        return declared == null ? Audience.Kind.MERCHANT : declared.value();
    }

    private static MethodParameter[] parameters(Method method) {
        MethodParameter[] parameters = new MethodParameter[method.getParameterCount()];
        for (int i = 0; i < parameters.length; i++) {
            parameters[i] = new MethodParameter(method, i);
        }
        return parameters;
    }

    private static boolean takesIdempotencyKey(MethodParameter[] parameters) {
        return Arrays.stream(parameters)
                .map(p -> p.getParameterAnnotation(RequestHeader.class))
                .anyMatch(h -> h != null && (IDEMPOTENCY_KEY.equals(h.name()) || IDEMPOTENCY_KEY.equals(h.value())));
    }
}

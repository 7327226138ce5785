/**
 * The API reference, generated from the code: the OpenAPI 3.1 document at {@code /openapi} (JSON) and
 * {@code /openapi.yaml}, built by springdoc from the handler mappings and completed from the {@code @Audience}
 * declarations, the error catalogue ({@link dev.kopek.platform.ProblemCode}), the event catalogue
 * ({@link dev.kopek.outbox.EventTypes}) and the descriptions in {@code apidocs/operations.yaml}; the API browser at
 * {@code /docs} (Swagger UI from its WebJar, nothing from the internet); and a page per problem code at
 * {@code /problems/{code}}, which every problem's {@code type} names. Everything here is public and reads nothing
 * but the code.
 */
@org.springframework.modulith.ApplicationModule(displayName = "API reference")
package dev.kopek.apidocs;

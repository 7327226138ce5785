package dev.kopek.apidocs;

import io.swagger.v3.core.util.Yaml31;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code apidocs/operations.yaml}: the descriptions the code cannot give (summaries, bodies read from the raw
 * request, response schemas of handlers that render JSON by hand, examples), keyed by path and method exactly as
 * the handler mappings spell them.
 */
record DocumentOverlay(OpenAPI document, Map<String, Object> examples) {

    static final String RESOURCE = "/apidocs/operations.yaml";
    /**
     * One example per component schema, each a real answer Kopek gave (recorded by ApiExamplesTest), so an example
     * cannot show a field that does not exist; ApiDocumentTest checks each against its schema.
     */
    static final String EXAMPLES = "/apidocs/examples.yaml";

    static DocumentOverlay load() {
        return new DocumentOverlay(
                read(RESOURCE, OpenAPI.class), read(EXAMPLES, ExampleFile.class).examples());
    }

    private record ExampleFile(Map<String, Object> examples) {}

    private static <T> T read(String resource, Class<T> type) {
        try (InputStream in = DocumentOverlay.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the jar");
            }
            return Yaml31.mapper().readValue(in, type);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    Optional<Operation> operation(String path, PathItem.HttpMethod method) {
        return Optional.ofNullable(document.getPaths())
                .map(paths -> paths.get(path))
                .map(item -> item.readOperationsMap().get(method));
    }

    /** Every described operation as "METHOD path", for the test that none describes a route that does not exist. */
    Map<String, Operation> operations() {
        Map<String, Operation> all = new LinkedHashMap<>();
        document.getPaths()
                .forEach((path, item) -> item.readOperationsMap()
                        .forEach((method, operation) -> all.put(method + " " + path, operation)));
        return all;
    }
}

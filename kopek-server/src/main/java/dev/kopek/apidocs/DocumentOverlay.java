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
record DocumentOverlay(OpenAPI document) {

    static final String RESOURCE = "/apidocs/operations.yaml";

    static DocumentOverlay load() {
        try (InputStream in = DocumentOverlay.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the jar");
            }
            return new DocumentOverlay(Yaml31.mapper().readValue(in, OpenAPI.class));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    Optional<Operation> operation(String path, PathItem.HttpMethod method) {
        return Optional.ofNullable(document.getPaths()).map(paths -> paths.get(path))
                .map(item -> item.readOperationsMap().get(method));
    }

    /** Every described operation as "METHOD path", for the test that none describes a route that does not exist. */
    Map<String, Operation> operations() {
        Map<String, Operation> all = new LinkedHashMap<>();
        document.getPaths().forEach((path, item) -> item.readOperationsMap()
                .forEach((method, operation) -> all.put(method + " " + path, operation)));
        return all;
    }
}

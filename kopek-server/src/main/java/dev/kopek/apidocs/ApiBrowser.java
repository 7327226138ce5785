package dev.kopek.apidocs;

import dev.kopek.platform.ApiProblem;
import dev.kopek.platform.Audience;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /docs}: Swagger UI over {@code /openapi}, its two files served from the Swagger UI WebJar under
 * {@value #ASSETS}. Only those two: the WebJar also holds Swagger UI's stock page, which would load the petstore
 * demo from the internet. The page is fixed text: it echoes nothing from the request.
 */
@RestController
@Audience(Audience.Kind.PUBLIC)
class ApiBrowser {

    static final String ASSETS = "/docs/assets/";
    private static final String WEBJAR_POM = "/META-INF/maven/org.webjars/swagger-ui/pom.properties";
    private static final String WEBJAR = "META-INF/resources/webjars/swagger-ui/";

    private static final String PAGE = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>Kopek API</title>
            <link rel="stylesheet" href="%1$sswagger-ui.css">
            </head>
            <body>
            <div id="swagger-ui"></div>
            <script src="%1$sswagger-ui-bundle.js"></script>
            <script src="/docs/init.js"></script>
            </body>
            </html>
            """.formatted(ASSETS);

    private static final String INIT = """
            window.ui = SwaggerUIBundle({
              url: "/openapi",
              dom_id: "#swagger-ui",
              deepLinking: true,
              tryItOutEnabled: false,
              validatorUrl: null
            });
            """;

    @GetMapping("/docs")
    ResponseEntity<String> page() {
        return ResponseEntity.ok().contentType(MediaType.TEXT_HTML).body(PAGE);
    }

    /** The page's script, a file of its own so the page carries no inline script. */
    @GetMapping("/docs/init.js")
    ResponseEntity<String> init() {
        return ResponseEntity.ok()
                .contentType(MediaType.valueOf("text/javascript"))
                .body(INIT);
    }

    /** The WebJar's files the page loads, by name, with their media types; any other name is 404. */
    private static final Map<String, MediaType> ASSET_TYPES = Map.of(
            "swagger-ui.css", MediaType.valueOf("text/css"),
            "swagger-ui-bundle.js", MediaType.valueOf("text/javascript"));

    @GetMapping(ASSETS + "{file}")
    ResponseEntity<Resource> asset(@PathVariable String file) {
        MediaType type = ASSET_TYPES.get(file);
        if (type == null) {
            throw ApiProblem.notFound("file");
        }
        Resource resource = new ClassPathResource(WEBJAR + swaggerUiVersion() + "/" + file);
        return ResponseEntity.ok()
                .contentType(type)
                .cacheControl(CacheControl.maxAge(Duration.ofDays(1)))
                .body(resource);
    }

    /** The WebJar's version names its folder; read from the WebJar itself so an upgrade needs no edit here. */
    static String swaggerUiVersion() {
        try (InputStream in = ApiBrowser.class.getResourceAsStream(WEBJAR_POM)) {
            if (in == null) {
                throw new IllegalStateException("the Swagger UI WebJar is not on the classpath (" + WEBJAR_POM + ")");
            }
            Properties pom = new Properties();
            pom.load(in);
            return pom.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

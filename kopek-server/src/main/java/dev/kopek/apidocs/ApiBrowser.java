package dev.kopek.apidocs;

import dev.kopek.platform.Audience;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /docs}: Swagger UI over {@code /openapi}, its files served from the Swagger UI WebJar under
 * {@value #ASSETS} (a static resource, public like every static file). The page is fixed text: it echoes nothing
 * from the request.
 */
@RestController
@Audience(Audience.Kind.PUBLIC)
class ApiBrowser {

    static final String ASSETS = "/docs/assets/";
    private static final String WEBJAR_POM = "/META-INF/maven/org.webjars/swagger-ui/pom.properties";

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
        return ResponseEntity.ok().contentType(MediaType.valueOf("text/javascript")).body(INIT);
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

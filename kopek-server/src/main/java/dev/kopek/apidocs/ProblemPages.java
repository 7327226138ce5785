package dev.kopek.apidocs;

import dev.kopek.platform.ApiProblem;
import dev.kopek.platform.Audience;
import dev.kopek.platform.ProblemCode;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.HtmlUtils;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code /problems/{code}}, the {@code type} of every problem Kopek answers: what the code means and what the
 * client should do. HTML for a person, JSON for a program that asks for {@code application/json}. An unknown code
 * is a 404 problem; nothing from the request is echoed into a page.
 */
@RestController
@Audience(Audience.Kind.PUBLIC)
class ProblemPages {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @GetMapping("/problems/{code}")
    ResponseEntity<String> problem(
            @PathVariable String code, @RequestHeader(name = "Accept", required = false) String accept) {
        ProblemCode problem = ProblemCode.find(code).orElseThrow(() -> ApiProblem.notFound("problem code"));
        return wantsJson(accept) ? json(entry(problem)) : html(page(problem.code(), body(problem)));
    }

    @GetMapping("/problems")
    ResponseEntity<String> catalogue(@RequestHeader(name = "Accept", required = false) String accept) {
        if (wantsJson(accept)) {
            return json(
                    Arrays.stream(ProblemCode.values()).map(ProblemPages::entry).toList());
        }
        StringBuilder list = new StringBuilder("<h1>Problem codes</h1>\n<p>Every error Kopek answers is an RFC 9457 "
                + "problem with one of these codes.</p>\n<dl>\n");
        for (ProblemCode problem : ProblemCode.values()) {
            list.append("<dt><a href=\"/problems/")
                    .append(problem.code())
                    .append("\"><code>")
                    .append(problem.code())
                    .append("</code></a> ")
                    .append(problem.statuses())
                    .append("</dt><dd>")
                    .append(HtmlUtils.htmlEscape(problem.meaning()))
                    .append("</dd>\n");
        }
        return html(page("Problem codes", list.append("</dl>").toString()));
    }

    static Map<String, Object> entry(ProblemCode problem) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("code", problem.code());
        json.put("statuses", problem.statuses());
        json.put("meaning", problem.meaning());
        json.put("action", problem.action().apiName());
        json.put("advice", problem.action().advice());
        return json;
    }

    private static String body(ProblemCode problem) {
        return "<h1><code>" + problem.code() + "</code></h1>\n"
                + "<p>HTTP "
                + String.join(
                        ", ", problem.statuses().stream().map(String::valueOf).toList()) + "</p>\n"
                + "<h2>What it means</h2>\n<p>" + HtmlUtils.htmlEscape(problem.meaning()) + "</p>\n"
                + "<h2>What to do</h2>\n<p><strong>"
                + problem.action().apiName().replace('_', ' ') + "</strong>: "
                + HtmlUtils.htmlEscape(problem.action().advice()) + "</p>\n"
                + "<p><a href=\"/problems\">Every problem code</a> · <a href=\"/docs\">API reference</a></p>";
    }

    private static String page(String title, String body) {
        return "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>"
                + HtmlUtils.htmlEscape(title) + " · Kopek</title>\n</head>\n<body>\n" + body + "\n</body>\n</html>\n";
    }

    private static boolean wantsJson(String accept) {
        return accept != null
                && List.of(accept.split(",")).stream()
                        .map(String::strip)
                        .anyMatch(type ->
                                type.startsWith("application/json") || type.startsWith("application/problem+json"));
    }

    private static ResponseEntity<String> json(Object body) {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(JSON.writeValueAsString(body));
    }

    private static ResponseEntity<String> html(String page) {
        return ResponseEntity.ok().contentType(MediaType.TEXT_HTML).body(page);
    }
}

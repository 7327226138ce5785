package dev.kopek.platform;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A part of one SQL statement that another module writes: its text (common table expressions) and its named
 * parameters. A module prefixes its parameter names, so that the parts of one statement never collide; the module
 * that runs the statement joins the parts and knows no table of the others.
 */
public record SqlPart(String sql, Map<String, Object> params) {

    public SqlPart {
        params = Collections.unmodifiableMap(new LinkedHashMap<>(params)); // values may be null (SQL NULL)
    }
}

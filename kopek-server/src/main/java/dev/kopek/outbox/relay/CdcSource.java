package dev.kopek.outbox.relay;

import com.zaxxer.hikari.HikariDataSource;
import java.net.URI;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/** Where Debezium connects: the same PostgreSQL as the pool, read from the pool's JDBC URL and credentials. */
record CdcSource(String host, int port, String database, String user, String password) {

    static CdcSource of(DataSource dataSource) {
        HikariDataSource hikari;
        try {
            hikari = dataSource.unwrap(HikariDataSource.class);
        } catch (SQLException e) {
            throw new IllegalStateException("CDC needs the Hikari pool's JDBC URL", e);
        }
        String url = hikari.getJdbcUrl();
        if (url == null || !url.startsWith("jdbc:postgresql://")) {
            throw new IllegalStateException("CDC supports a single-host jdbc:postgresql:// URL");
        }
        URI uri = URI.create(url.substring("jdbc:".length()));
        Map<String, String> query = uri.getRawQuery() == null
                ? Map.of()
                : Arrays.stream(uri.getRawQuery().split("&"))
                        .map(p -> p.split("=", 2))
                        .filter(p -> p.length == 2)
                        .collect(Collectors.toMap(p -> p[0], p -> p[1], (a, b) -> b));
        String user = hikari.getUsername() != null ? hikari.getUsername() : query.getOrDefault("user", "postgres");
        String password = hikari.getPassword() != null ? hikari.getPassword() : query.getOrDefault("password", "");
        return new CdcSource(
                uri.getHost(),
                uri.getPort() < 0 ? 5432 : uri.getPort(),
                uri.getPath().substring(1),
                user,
                password);
    }

    @Override
    public String toString() {
        return "CdcSource[" + host + ":" + port + "/" + database + " as " + user + "]";
    }
}

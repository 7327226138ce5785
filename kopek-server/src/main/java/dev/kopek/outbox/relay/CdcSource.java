package dev.kopek.outbox.relay;

import com.zaxxer.hikari.HikariDataSource;
import java.net.URI;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.postgresql.core.BaseConnection;
import org.postgresql.util.HostSpec;

/**
 * Where Debezium connects: the server the pool's connection {@code on} is open to, as the same user. With a
 * multi-host URL ({@code jdbc:postgresql://n1,n2,n3/kopek?targetServerType=primary}) that is the current primary, so
 * after a failover the relay's next start follows the pool to the new one; Debezium itself takes one host only.
 */
record CdcSource(String host, int port, String database, String user, String password) {

    static CdcSource of(DataSource dataSource, Connection on) throws SQLException {
        HikariDataSource hikari = dataSource.unwrap(HikariDataSource.class);
        String url = hikari.getJdbcUrl();
        if (url == null || !url.startsWith("jdbc:postgresql://")) {
            throw new IllegalStateException("CDC needs a jdbc:postgresql:// URL");
        }
        HostSpec server = on.unwrap(BaseConnection.class).getQueryExecutor().getHostSpec();
        // A multi-host authority is no server-based authority to java.net.URI, but the query still parses.
        URI uri = URI.create(url.substring("jdbc:".length()));
        Map<String, String> query = uri.getRawQuery() == null
                ? Map.of()
                : Arrays.stream(uri.getRawQuery().split("&"))
                        .map(p -> p.split("=", 2))
                        .filter(p -> p.length == 2)
                        .collect(Collectors.toMap(p -> p[0], p -> p[1], (a, b) -> b));
        String user = hikari.getUsername() != null ? hikari.getUsername() : query.getOrDefault("user", "postgres");
        String password = hikari.getPassword() != null ? hikari.getPassword() : query.getOrDefault("password", "");
        return new CdcSource(server.getHost(), server.getPort(), on.getCatalog(), user, password);
    }

    @Override
    public String toString() {
        return "CdcSource[" + host + ":" + port + "/" + database + " as " + user + "]";
    }
}

package dev.jobqueue.test.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

import dev.jobqueue.support.PostgresTestDatabase;

/** Where the tests' contexts keep their jobs: a new SQLite file, or a new schema on the PostgreSQL test server. */
final class TestDatabases {

	private TestDatabases() {
	}

	static Path newSqliteFile() throws IOException {
		Path directory = Files.createDirectories(Path.of("target"));
		return Files.createTempFile(directory, "queue-test", ".db").toAbsolutePath();
	}

	/** The JDBC URL of a schema {@code schema}, dropped and created anew. */
	static String newPostgresSchema(String schema) throws SQLException {
		String url = PostgresTestDatabase.url();
		try (Connection connection = DriverManager.getConnection(url);
				Statement statement = connection.createStatement()) {
			statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
			statement.execute("CREATE SCHEMA " + schema);
		}
		return url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema;
	}
}

package dev.jobqueue.autoconfigure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;

class SqliteFlywayCoexistenceTests extends AbstractFlywayCoexistenceTests {

	@Override
	protected String freshDatabaseUrl() {
		try {
			Path file = Files.createTempFile(Path.of("target"), "starter-flyway-test", ".db");
			Files.delete(file);
			return "jdbc:sqlite:" + file;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	protected List<String> tables(JdbcClient jdbc) {
		return jdbc.sql("SELECT lower(name) FROM sqlite_master WHERE type = 'table'").query(String.class).list();
	}
}

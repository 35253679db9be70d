package dev.jobqueue.sqlite;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import dev.jobqueue.contract.SchemaMigrationRaceContractTest;
class SqliteSchemaMigrationRaceTest extends SchemaMigrationRaceContractTest {

	private final Path directory = newDirectory();

	@Override
	protected String urlPattern() {
		return "jdbc:sqlite:" + directory.resolve("round-{round}.db");
	}

	@Override
	protected void prepareRound(int round) {
		// A new file each round: nothing to prepare.
	}

	@Override
	protected Map<String, Integer> historyRowsByVersion(int round) {
		String url = urlPattern().replace("{round}", Integer.toString(round));
		SingleConnectionDataSource dataSource = new SingleConnectionDataSource(url, true);
		try {
			return historyRowsByVersion(JdbcClient.create(dataSource));
		}
		finally {
			dataSource.destroy();
		}
	}

	private static Path newDirectory() {
		try {
			return Files.createTempDirectory(Files.createDirectories(Path.of("target")), "migration-race")
				.toAbsolutePath();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}
}

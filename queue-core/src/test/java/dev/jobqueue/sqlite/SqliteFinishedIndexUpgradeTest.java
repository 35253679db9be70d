package dev.jobqueue.sqlite;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import javax.sql.DataSource;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.util.FileSystemUtils;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.jobqueue.contract.FinishedIndexUpgradeContractTest;
import dev.jobqueue.store.sqlite.SqliteDialect;

/** The upgrade to one index of finished rows, on a SQLite file of its own. */
class SqliteFinishedIndexUpgradeTest extends FinishedIndexUpgradeContractTest {

	private Path directory;

	private HikariDataSource dataSource;

	@Override
	protected DataSource emptyDatabase() {
		try {
			directory = Files.createTempDirectory(Files.createDirectories(Path.of("target")), "finished-index-upgrade")
				.toAbsolutePath();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl("jdbc:sqlite:" + directory.resolve("jobs.db"));
		config.setMaximumPoolSize(4);
		dataSource = new HikariDataSource(config);
		return dataSource;
	}

	@Override
	protected void dropDatabase() {
		dataSource.close();
		try {
			FileSystemUtils.deleteRecursively(directory);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	protected String vendor() {
		return SqliteDialect.VENDOR;
	}

	@Override
	protected List<String> indexes(JdbcClient jdbc) {
		return jdbc.sql("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'jobqueue_job'")
			.query(String.class)
			.list();
	}

	@Override
	protected String now() {
		return "CAST(round(unixepoch('subsec') * 1000) AS INTEGER)";
	}

	@Override
	protected String finishedEarlierBy() {
		return "UPDATE jobqueue_job SET finished_at = finished_at - :millis WHERE id IN (:ids)";
	}
}

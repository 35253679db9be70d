package dev.jobqueue.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import javax.sql.DataSource;

import org.springframework.jdbc.core.simple.JdbcClient;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.jobqueue.dialects.JobStores;
import dev.jobqueue.store.JobStore;

/**
 * A SQLite database file of its own under {@code target/}, deleted at the end. The pool is configured
 * as an application would leave it, with none of the queue's settings: the store must bring WAL, the
 * busy timeout and immediate transactions itself.
 */
public final class SqliteTestDatabase implements TestDatabase {

	private final Path file;

	private final HikariDataSource dataSource;

	private final JobStore store;

	public SqliteTestDatabase() {
		this(8);
	}

	public SqliteTestDatabase(int poolSize) {
		this.file = newFile();
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl("jdbc:sqlite:" + file);
		config.setMaximumPoolSize(poolSize);
		this.dataSource = new HikariDataSource(config);
		this.store = JobStores.forDataSource(dataSource);
		JobStores.migrate(dataSource, store.vendor());
	}

	private static Path newFile() {
		try {
			Path directory = Files.createDirectories(Path.of("target"));
			Path file = Files.createTempFile(directory, "jobqueue-test", ".db");
			Files.delete(file);
			return file.toAbsolutePath();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	public Path file() {
		return file;
	}

	@Override
	public DataSource dataSource() {
		return dataSource;
	}

	@Override
	public JobStore store() {
		return store;
	}

	@Override
	public void reset() {
		JdbcClient jdbc = JdbcClient.create(dataSource);
		jdbc.sql("DROP TRIGGER IF EXISTS jobqueue_test_refuse_poison").update();
		jdbc.sql("DELETE FROM jobqueue_job").update();
		jdbc.sql("DELETE FROM jobqueue_job_step").update();
		jdbc.sql("DELETE FROM jobqueue_job_dependency").update();
		jdbc.sql("DELETE FROM jobqueue_batch").update();
		jdbc.sql("DELETE FROM jobqueue_batch_job").update();
		jdbc.sql("DELETE FROM jobqueue_schedule").update();
		jdbc.sql("DELETE FROM jobqueue_pause").update();
		jdbc.sql("DELETE FROM jobqueue_maintenance").update();
		jdbc.sql("DELETE FROM jobqueue_node").update();
		jdbc.sql("DELETE FROM jobqueue_kind").update();
	}

	@Override
	public void refusePoison() {
		JdbcClient.create(dataSource).sql("""
				CREATE TRIGGER jobqueue_test_refuse_poison BEFORE INSERT ON jobqueue_job
				WHEN NEW.kind = 'poison'
				BEGIN SELECT RAISE(ABORT, 'job of kind poison refused by a test trigger'); END""").update();
	}

	/**
	 * Other JVMs wait for the write lock as long as the queue's own connections do, and their handlers'
	 * own commits are as durable as the queue's ({@code synchronous=NORMAL}), which the queue no longer
	 * sets on the application's connections: the tests measure the queue, not the disk's syncs.
	 */
	@Override
	public String jdbcUrl() {
		return "jdbc:sqlite:" + file + "?busy_timeout=5000&synchronous=NORMAL";
	}

	@Override
	public void close() {
		dataSource.close();
		for (String suffix : new String[] { "", "-wal", "-shm" }) {
			try {
				Files.deleteIfExists(Path.of(file + suffix));
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
	}
}

package dev.jobqueue.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import javax.sql.DataSource;

import org.springframework.jdbc.core.simple.JdbcClient;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/**
 * The database the benchmark runs on, with a pool sized for 32 worker threads: PostgreSQL, MySQL/MariaDB, or a
 * SQLite file. A SQLite database made for the run is a fresh temporary file, deleted at the end.
 */
final class Database implements AutoCloseable {

	private final String url;

	private final HikariDataSource dataSource;

	private final Path temporaryFile;

	Database(String url, int poolSize) {
		this(url, poolSize, null);
	}

	private Database(String url, int poolSize, Path temporaryFile) {
		this.url = url;
		this.temporaryFile = temporaryFile;
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url);
		config.setMaximumPoolSize(poolSize);
		this.dataSource = new HikariDataSource(config);
	}

	/** The database the options name; for SQLite without a URL, a new file in the temporary directory. */
	static Database open(Options options, int poolSize) throws IOException {
		if (options.url() != null) {
			return new Database(options.url(), poolSize);
		}
		Path file = Files.createTempFile("jobqueue-bench-", ".db");
		return new Database(sqliteUrl(file), poolSize, file);
	}

	/**
	 * WAL and a busy timeout for every library's connections, as any SQLite application with concurrent
	 * writers sets them, and {@code synchronous = NORMAL}, at which jobqueue commits on its own connections: every
	 * library at the same durability.
	 */
	static String sqliteUrl(Path file) {
		return "jdbc:sqlite:" + file + "?journal_mode=WAL&busy_timeout=5000&synchronous=NORMAL";
	}

	/** {@code sqlite}, {@code mysql} (MySQL or MariaDB, through either driver) or {@code postgresql}, by scheme. */
	static String vendorOf(String url) {
		if (url.startsWith("jdbc:sqlite:")) {
			return "sqlite";
		}
		return url.startsWith("jdbc:mysql:") || url.startsWith("jdbc:mariadb:") ? "mysql" : "postgresql";
	}

	String url() {
		return url;
	}

	boolean sqlite() {
		return vendorOf(url).equals("sqlite");
	}

	boolean mysql() {
		return vendorOf(url).equals("mysql");
	}

	DataSource dataSource() {
		return dataSource;
	}

	JdbcClient jdbc() {
		return JdbcClient.create(dataSource);
	}

	/** Deletes every row of a table: TRUNCATE where the database has it. */
	void empty(String table) {
		jdbc().sql((sqlite() ? "DELETE FROM " : "TRUNCATE ") + table).update();
	}

	/** Table and index sizes of a PostgreSQL table, in bytes. */
	long[] sizes(String table) {
		return jdbc().sql("SELECT pg_table_size(CAST(:t AS regclass)), pg_indexes_size(CAST(:t AS regclass))")
			.param("t", table)
			.query((rs, n) -> new long[] { rs.getLong(1), rs.getLong(2) })
			.single();
	}

	@Override
	public void close() {
		dataSource.close();
		if (temporaryFile != null) {
			for (String suffix : new String[] { "", "-wal", "-shm" }) {
				delete(Path.of(temporaryFile + suffix));
			}
		}
	}

	private static void delete(Path file) {
		try {
			Files.deleteIfExists(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}
}

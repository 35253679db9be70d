package dev.jobqueue.benchmarks;

import javax.sql.DataSource;

import org.springframework.jdbc.core.simple.JdbcClient;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/** The PostgreSQL database the benchmark runs on, with a pool sized for 32 worker threads. */
final class Database implements AutoCloseable {

	private final String url;

	private final HikariDataSource dataSource;

	Database(String url, int poolSize) {
		this.url = url;
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url);
		config.setMaximumPoolSize(poolSize);
		this.dataSource = new HikariDataSource(config);
	}

	String url() {
		return url;
	}

	DataSource dataSource() {
		return dataSource;
	}

	JdbcClient jdbc() {
		return JdbcClient.create(dataSource);
	}

	/** Table and index sizes of a table, in bytes. */
	long[] sizes(String table) {
		return jdbc().sql("SELECT pg_table_size(CAST(:t AS regclass)), pg_indexes_size(CAST(:t AS regclass))")
			.param("t", table)
			.query((rs, n) -> new long[] { rs.getLong(1), rs.getLong(2) })
			.single();
	}

	@Override
	public void close() {
		dataSource.close();
	}
}

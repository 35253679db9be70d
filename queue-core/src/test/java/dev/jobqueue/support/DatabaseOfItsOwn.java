package dev.jobqueue.support;

import javax.sql.DataSource;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/**
 * A database of a test's own on a test server, for a test that needs an empty one (an upgrade from an old schema
 * version) beside the shared test database. Named after the test database, so that two checkouts testing on one
 * server keep apart; created empty, dropped on close.
 */
public final class DatabaseOfItsOwn implements AutoCloseable {

	private final SingleConnectionDataSource admin;

	private final String name;

	private final HikariDataSource dataSource;

	/** {@code testUrl}'s database with {@code suffix} after its name, created empty on its server. */
	public DatabaseOfItsOwn(String testUrl, String suffix) {
		admin = new SingleConnectionDataSource(testUrl, true);
		Url url = Url.of(testUrl);
		name = url.database() + "_" + suffix;
		JdbcClient jdbc = JdbcClient.create(admin);
		jdbc.sql("DROP DATABASE IF EXISTS " + name).update();
		jdbc.sql("CREATE DATABASE " + name).update();
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url.withDatabase(name));
		config.setMaximumPoolSize(4);
		dataSource = new HikariDataSource(config);
	}

	public DataSource dataSource() {
		return dataSource;
	}

	@Override
	public void close() {
		dataSource.close();
		JdbcClient.create(admin).sql("DROP DATABASE IF EXISTS " + name).update();
		admin.destroy();
	}

	/** A JDBC URL cut around its database: the path after host and port, up to the parameters. */
	private record Url(String head, String database, String tail) {

		static Url of(String url) {
			int pathStart = url.indexOf('/', url.indexOf("//") + 2) + 1;
			int query = url.indexOf('?', pathStart);
			int pathEnd = query < 0 ? url.length() : query;
			return new Url(url.substring(0, pathStart), url.substring(pathStart, pathEnd), url.substring(pathEnd));
		}

		String withDatabase(String name) {
			return head + name + tail;
		}
	}
}

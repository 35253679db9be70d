package dev.jobqueue.mysql;

import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import dev.jobqueue.contract.SchemaMigrationRaceContractTest;
import dev.jobqueue.support.MysqlTestDatabase;

/** Each round is a new database on the test server, named in the URL in place of the test database. */
class MysqlSchemaMigrationRaceTest extends SchemaMigrationRaceContractTest {

	private static final String DATABASE_PREFIX = "jobqueue_migration_race_";

	private static SingleConnectionDataSource admin;

	@BeforeAll
	static void connect() {
		admin = new SingleConnectionDataSource(MysqlTestDatabase.url(), true);
		dropDatabases();
	}

	@AfterAll
	static void disconnect() {
		dropDatabases();
		admin.destroy();
	}

	/** The test URL with its database, the path after host and port, replaced by the round's. */
	@Override
	protected String urlPattern() {
		String url = MysqlTestDatabase.url();
		int hostStart = url.indexOf("//") + 2;
		int pathStart = url.indexOf('/', hostStart);
		int query = url.indexOf('?', pathStart);
		return url.substring(0, pathStart + 1) + DATABASE_PREFIX + "{round}" + (query < 0 ? "" : url.substring(query));
	}

	@Override
	protected void prepareRound(int round) {
		JdbcClient.create(admin).sql("CREATE DATABASE " + DATABASE_PREFIX + round).update();
	}

	@Override
	protected Map<String, Integer> historyRowsByVersion(int round) {
		JdbcClient jdbc = JdbcClient.create(admin);
		jdbc.sql("USE " + DATABASE_PREFIX + round).update();
		return historyRowsByVersion(jdbc);
	}

	private static void dropDatabases() {
		JdbcClient jdbc = JdbcClient.create(admin);
		jdbc.sql("SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE :prefix")
			.param("prefix", DATABASE_PREFIX + "%")
			.query(String.class)
			.list()
			.forEach(database -> jdbc.sql("DROP DATABASE " + database).update());
	}
}

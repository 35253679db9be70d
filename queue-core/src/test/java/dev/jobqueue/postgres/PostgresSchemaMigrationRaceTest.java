package dev.jobqueue.postgres;

import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import dev.jobqueue.contract.SchemaMigrationRaceContractTest;
import dev.jobqueue.support.PostgresTestDatabase;

/** Each round is a new schema of the test database, named in the URL's {@code currentSchema}. */
class PostgresSchemaMigrationRaceTest extends SchemaMigrationRaceContractTest {

	private static final String SCHEMA_PREFIX = "jobqueue_migration_race_";

	private static SingleConnectionDataSource admin;

	@BeforeAll
	static void connect() {
		admin = new SingleConnectionDataSource(PostgresTestDatabase.url(), true);
		dropSchemas();
	}

	@AfterAll
	static void disconnect() {
		dropSchemas();
		admin.destroy();
	}

	@Override
	protected String urlPattern() {
		String url = PostgresTestDatabase.url();
		return url + (url.contains("?") ? "&" : "?") + "currentSchema=" + SCHEMA_PREFIX + "{round}";
	}

	@Override
	protected void prepareRound(int round) {
		JdbcClient.create(admin).sql("CREATE SCHEMA " + SCHEMA_PREFIX + round).update();
	}

	@Override
	protected Map<String, Integer> historyRowsByVersion(int round) {
		JdbcClient jdbc = JdbcClient.create(admin);
		jdbc.sql("SET search_path TO " + SCHEMA_PREFIX + round).update();
		try {
			return historyRowsByVersion(jdbc);
		}
		finally {
			jdbc.sql("RESET search_path").update();
		}
	}

	private static void dropSchemas() {
		JdbcClient jdbc = JdbcClient.create(admin);
		jdbc.sql("SELECT nspname FROM pg_namespace WHERE nspname LIKE :prefix")
			.param("prefix", SCHEMA_PREFIX + "%")
			.query(String.class)
			.list()
			.forEach(schema -> jdbc.sql("DROP SCHEMA " + schema + " CASCADE").update());
	}
}

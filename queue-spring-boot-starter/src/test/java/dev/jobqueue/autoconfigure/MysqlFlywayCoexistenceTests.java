package dev.jobqueue.autoconfigure;

import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;

class MysqlFlywayCoexistenceTests extends AbstractFlywayCoexistenceTests {

	@Override
	protected String freshDatabaseUrl() {
		return MysqlDatabases.fresh("starter_flyway_test");
	}

	@Override
	protected List<String> tables(JdbcClient jdbc) {
		return jdbc.sql("SELECT table_name FROM information_schema.tables WHERE table_schema = database()")
			.query(String.class)
			.list();
	}

	@Override
	protected List<String> firstQueueMigrations() {
		return List.of("create tables");
	}
}

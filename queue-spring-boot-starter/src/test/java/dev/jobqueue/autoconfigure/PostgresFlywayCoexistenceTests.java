package dev.jobqueue.autoconfigure;

import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;

class PostgresFlywayCoexistenceTests extends AbstractFlywayCoexistenceTests {

	@Override
	protected String freshDatabaseUrl() {
		return PostgresSchemas.fresh("starter_flyway_test");
	}

	@Override
	protected List<String> tables(JdbcClient jdbc) {
		return jdbc.sql("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")
			.query(String.class)
			.list();
	}
}

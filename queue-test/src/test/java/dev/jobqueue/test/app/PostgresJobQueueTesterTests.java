package dev.jobqueue.test.app;

import java.sql.SQLException;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** On PostgreSQL, in a schema of its own on the test server. */
class PostgresJobQueueTesterTests extends AbstractJobQueueTesterTests {

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry properties) throws SQLException {
		String url = TestDatabases.newPostgresSchema("tester_test");
		properties.add("spring.datasource.url", () -> url);
	}
}

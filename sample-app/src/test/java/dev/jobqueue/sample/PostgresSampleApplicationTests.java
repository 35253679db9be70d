package dev.jobqueue.sample;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.jobqueue.support.PostgresTestDatabase;

/** On PostgreSQL, in a schema of its own on the test server. */
class PostgresSampleApplicationTests extends AbstractSampleApplicationTests {

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry properties) throws SQLException {
		String url = PostgresTestDatabase.url();
		try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
			statement.execute("DROP SCHEMA IF EXISTS sample_test CASCADE");
			statement.execute("CREATE SCHEMA sample_test");
		}
		properties.add("spring.datasource.url", () -> url + (url.contains("?") ? "&" : "?") + "currentSchema=sample_test");
	}
}

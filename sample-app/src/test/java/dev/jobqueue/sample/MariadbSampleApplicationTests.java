package dev.jobqueue.sample;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.jobqueue.support.MysqlTestDatabase;

/** On MariaDB (or MySQL), in a database of its own on the test server. */
class MariadbSampleApplicationTests extends AbstractSampleApplicationTests {

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry properties) throws SQLException {
		String url = MysqlTestDatabase.url();
		try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
			statement.execute("DROP DATABASE IF EXISTS sample_test");
			statement.execute("CREATE DATABASE sample_test CHARACTER SET utf8mb4");
		}
		properties.add("spring.datasource.url", () -> url.replaceFirst("^(jdbc:\\w+://[^/?]+)(/[^?]*)?", "$1/sample_test"));
	}
}

package dev.jobqueue.autoconfigure;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

import dev.jobqueue.support.PostgresTestDatabase;

/**
 * Empty PostgreSQL schemas on the test server, one per test, so that applications started by different
 * tests never see (nor work) each other's jobs.
 */
public final class PostgresSchemas {

	private PostgresSchemas() {
	}

	/** Drops and recreates {@code schema}; returns a JDBC URL whose connections work in it. */
	public static String fresh(String schema) {
		String url = PostgresTestDatabase.url();
		try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
			statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
			statement.execute("CREATE SCHEMA " + schema);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not prepare schema " + schema, ex);
		}
		return url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema;
	}
}

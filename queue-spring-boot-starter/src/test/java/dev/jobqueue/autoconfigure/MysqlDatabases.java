package dev.jobqueue.autoconfigure;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

import dev.jobqueue.support.MysqlTestDatabase;

/**
 * Empty databases on the MySQL/MariaDB test server, one per test, so that applications started by different
 * tests never see (nor work) each other's jobs. MySQL's databases are what PostgreSQL's schemas are here.
 */
public final class MysqlDatabases {

	private MysqlDatabases() {
	}

	/** Drops and recreates the database {@code name}; returns the test server's JDBC URL with it in its path. */
	public static String fresh(String name) {
		String url = MysqlTestDatabase.url();
		try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
			statement.execute("DROP DATABASE IF EXISTS " + name);
			statement.execute("CREATE DATABASE " + name + " CHARACTER SET utf8mb4");
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not prepare database " + name, ex);
		}
		return url.replaceFirst("^(jdbc:\\w+://[^/?]+)(/[^?]*)?", "$1/" + name);
	}
}

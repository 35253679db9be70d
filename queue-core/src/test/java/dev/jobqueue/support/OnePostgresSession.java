package dev.jobqueue.support;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import com.zaxxer.hikari.HikariDataSource;

/**
 * The test database and a pool of one connection to it, for tests that look at what one session did
 * (its settings, the statistics it flushed, the notices it received), opened before the test class's
 * tests and closed after them. Register it in a static field with {@code @RegisterExtension}.
 */
public final class OnePostgresSession implements BeforeAllCallback, AfterAllCallback {

	private PostgresTestDatabase database;

	private HikariDataSource session;

	@Override
	public void beforeAll(ExtensionContext context) {
		database = new PostgresTestDatabase();
		session = database.oneConnectionPool();
	}

	@Override
	public void afterAll(ExtensionContext context) {
		session.close();
		database.close();
	}

	public PostgresTestDatabase database() {
		return database;
	}

	/** A pool whose one connection is always the same session. */
	public HikariDataSource session() {
		return session;
	}
}

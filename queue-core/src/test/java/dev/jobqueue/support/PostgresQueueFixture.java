package dev.jobqueue.support;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The test database, opened before the test class's tests and closed after them, and a new
 * {@link QueueFixture} on it for each test. Register it in a static field with {@code @RegisterExtension}.
 */
public final class PostgresQueueFixture
		implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, AfterAllCallback {

	private final int poolSize;

	private PostgresTestDatabase database;

	private QueueFixture fixture;

	public PostgresQueueFixture(int poolSize) {
		this.poolSize = poolSize;
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		database = new PostgresTestDatabase(poolSize);
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		fixture = new QueueFixture(database);
	}

	@Override
	public void afterEach(ExtensionContext context) {
		fixture.close();
	}

	@Override
	public void afterAll(ExtensionContext context) {
		database.close();
	}

	public PostgresTestDatabase database() {
		return database;
	}

	/** The current test's fixture. */
	public QueueFixture fixture() {
		return fixture;
	}
}

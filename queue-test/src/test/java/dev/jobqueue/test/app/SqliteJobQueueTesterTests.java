package dev.jobqueue.test.app;

import java.io.IOException;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** On SQLite, in a file of its own. */
class SqliteJobQueueTesterTests extends AbstractJobQueueTesterTests {

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry properties) throws IOException {
		String url = "jdbc:sqlite:" + TestDatabases.newSqliteFile();
		properties.add("spring.datasource.url", () -> url);
	}
}

package dev.jobqueue.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The default profile: SQLite, in a file of its own instead of data/sample.db. */
class SqliteSampleApplicationTests extends AbstractSampleApplicationTests {

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry properties) throws IOException {
		Path file = Files.createTempFile(Path.of("target"), "sample-test", ".db");
		properties.add("spring.datasource.url", () -> "jdbc:sqlite:" + file);
	}
}

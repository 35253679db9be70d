package dev.jobqueue.autoconfigure.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class SqliteJobQueueApplicationTests extends AbstractJobQueueApplicationTests {

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry properties) throws IOException {
		Path file = Files.createTempFile(Path.of("target"), "starter-application-test", ".db");
		properties.add("spring.datasource.url", () -> "jdbc:sqlite:" + file);
	}
}

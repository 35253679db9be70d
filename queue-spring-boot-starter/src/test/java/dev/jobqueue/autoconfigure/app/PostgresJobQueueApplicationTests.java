package dev.jobqueue.autoconfigure.app;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.jobqueue.autoconfigure.PostgresSchemas;

class PostgresJobQueueApplicationTests extends AbstractJobQueueApplicationTests {

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry properties) {
		String url = PostgresSchemas.fresh("starter_application_test");
		properties.add("spring.datasource.url", () -> url);
	}
}

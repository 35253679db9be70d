package dev.jobqueue.autoconfigure.app;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.jobqueue.autoconfigure.MysqlDatabases;

class MysqlJobQueueApplicationTests extends AbstractJobQueueApplicationTests {

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry properties) {
		String url = MysqlDatabases.fresh("starter_application_test");
		properties.add("spring.datasource.url", () -> url);
	}
}

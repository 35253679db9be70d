package dev.jobqueue.autoconfigure.app;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.JobQueue;

/** A small application on the starter: its own table (Flyway, db/migration), a service and handlers. */
@SpringBootConfiguration
@EnableAutoConfiguration
public class QueueTestApplication {

	@Bean
	SignupService signupService(JdbcClient jdbc, JobQueue jobs) {
		return new SignupService(jdbc, jobs);
	}

	@Bean
	TestJobHandlers testJobHandlers(JdbcClient jdbc) {
		return new TestJobHandlers(jdbc);
	}
}

package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The application's own Flyway migrations ({@code db/migration}, history {@code flyway_schema_history})
 * and the queue's (history {@code jobqueue_schema_history}) share one DataSource, whichever comes first.
 */
public abstract class AbstractFlywayCoexistenceTests {

	private ApplicationContextRunner runner;

	/** A JDBC URL of a new, empty database. */
	protected abstract String freshDatabaseUrl();

	/** The tables of the database, in lower case. */
	protected abstract List<String> tables(JdbcClient jdbc);

	/**
	 * The first of the queue's migrations on this database, in order: those PostgreSQL and SQLite share (PostgreSQL
	 * has index changes of its own after them); MySQL/MariaDB, which came later, starts from one of its own.
	 */
	protected List<String> firstQueueMigrations() {
		return List.of("create job table", "lease index by expiry", "error history", "attempt given back once",
				"claim confirmation", "payload version", "unique key per kind", "schedules", "snoozes",
				"concurrency keys", "pauses", "rate limits");
	}

	@BeforeEach
	void freshDatabase() {
		runner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, FlywayAutoConfiguration.class,
					JobQueueAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=" + freshDatabaseUrl(), "jobqueue.worker.enabled=false");
	}

	@Test
	void onANewDatabaseTheApplicationsMigrationsRunFirstAndOursGoBesideThem() {
		runner.run(context -> {
			assertThat(context).hasNotFailed();
			assertBothSchemas(context);
			// Our history starts with a baseline: the schema already held the application's tables.
			List<String> expected = new ArrayList<>(List.of("<< Flyway Baseline >>"));
			expected.addAll(firstQueueMigrations());
			assertThat(descriptions(context, "jobqueue_schema_history")).startsWith(expected.toArray(String[]::new));
		});
	}

	@Test
	void theApplicationsMigrationsStillRunFirstWhenSomethingAsksForTheQueuesSchemaFirst() {
		runner.withUserConfiguration(EagerSchemaUser.class).run(context -> {
			assertThat(context).hasNotFailed();
			assertBothSchemas(context);
			assertThat(descriptions(context, "jobqueue_schema_history")).first().isEqualTo("<< Flyway Baseline >>");
		});
	}

	@Test
	void theQueueAddedToAnApplicationWhoseMigrationsRanBeforeGoesBesideThem() {
		runner.withPropertyValues("jobqueue.enabled=false").run(context -> assertThat(context).hasNotFailed());
		runner.run(context -> {
			assertThat(context).hasNotFailed();
			assertBothSchemas(context);
		});
	}

	@Test
	void flywayAddedToADatabaseTheQueueInitializedRunsWithABaselineBelowItsFirstMigration() {
		runner.withPropertyValues("spring.flyway.enabled=false").run(context -> assertThat(context).hasNotFailed());
		runner.withPropertyValues("spring.flyway.baseline-on-migrate=true", "spring.flyway.baseline-version=0")
			.run(context -> {
				assertThat(context).hasNotFailed();
				assertBothSchemas(context);
				assertThat(descriptions(context, "flyway_schema_history")).containsExactly("<< Flyway Baseline >>",
						"create signup");
			});
	}

	@Test
	void flywayAddedToADatabaseTheQueueInitializedRefusesItWithoutABaseline() {
		runner.withPropertyValues("spring.flyway.enabled=false").run(context -> assertThat(context).hasNotFailed());
		runner.run(context -> assertThat(context).hasFailed()
			.getFailure()
			.hasStackTraceContaining("Found non-empty schema(s)"));
	}

	private void assertBothSchemas(ApplicationContext context) {
		assertThat(tables(jdbc(context))).contains("flyway_schema_history", "app_signup", "app_audit",
				"jobqueue_schema_history", "jobqueue_job");
		assertThat(descriptions(context, "flyway_schema_history")).contains("create signup");
		assertThat(descriptions(context, "jobqueue_schema_history")).contains(firstQueueMigrations().get(0));
	}

	private static List<String> descriptions(ApplicationContext context, String history) {
		return jdbc(context).sql("SELECT description FROM " + history + " ORDER BY installed_rank")
			.query(String.class)
			.list();
	}

	private static JdbcClient jdbc(ApplicationContext context) {
		return JdbcClient.create(context.getBean(DataSource.class));
	}

	/** A bean of the application's that needs the queue's schema before anything else is created. */
	@Configuration(proxyBeanMethods = false)
	static class EagerSchemaUser {

		@Bean
		String eagerSchemaUser(JobQueueSchemaInitializer schema) {
			return "uses " + schema;
		}
	}
}

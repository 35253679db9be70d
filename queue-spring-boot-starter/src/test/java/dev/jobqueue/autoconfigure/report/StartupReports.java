package dev.jobqueue.autoconfigure.report;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import dev.jobqueue.autoconfigure.JobQueueAutoConfiguration;
import dev.jobqueue.autoconfigure.JobQueueNoDataSourceAutoConfiguration;

/** Real application startups, as {@code SpringApplication.run} does them, for the report tests. */
final class StartupReports {

	private StartupReports() {
	}

	/** Starts the beans {@code sources} with the queue's auto-configuration but no DataSource at all. */
	static ConfigurableApplicationContext withoutDataSource(List<Class<?>> sources, String... properties) {
		return start(NoDataSourceApplication.class, sources, properties);
	}

	/** Starts {@code sources} on a SQLite file through Spring Boot's DataSource, without workers. */
	static ConfigurableApplicationContext onSqlite(Path file, List<Class<?>> sources, String... properties) {
		List<String> all = new ArrayList<>(List.of("--spring.datasource.url=jdbc:sqlite:" + file,
				"--jobqueue.worker.enabled=false"));
		all.addAll(List.of(properties));
		return start(SqliteApplication.class, sources, all.toArray(String[]::new));
	}

	/** Starts {@code sources} on a SQLite file through Spring Boot's DataSource, with workers. */
	static ConfigurableApplicationContext workingOnSqlite(Path file, String... properties) {
		List<String> all = new ArrayList<>(List.of("--spring.datasource.url=jdbc:sqlite:" + file));
		all.addAll(List.of(properties));
		return start(SqliteApplication.class, List.of(), all.toArray(String[]::new));
	}

	/** Asserts that the startup fails; the report is then in the captured output. */
	static void startupFails(Runnable startup) {
		assertThatThrownBy(startup::run).isInstanceOf(RuntimeException.class);
	}

	private static ConfigurableApplicationContext start(Class<?> application, List<Class<?>> sources,
			String... args) {
		List<Class<?>> all = new ArrayList<>(List.of(application));
		all.addAll(sources);
		SpringApplication app = new SpringApplication(all.toArray(Class<?>[]::new));
		app.setWebApplicationType(WebApplicationType.NONE);
		app.setBannerMode(Banner.Mode.OFF);
		return app.run(args);
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ JobQueueAutoConfiguration.class, JobQueueNoDataSourceAutoConfiguration.class })
	static class NoDataSourceApplication {

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataSourceAutoConfiguration.class, DataSourceTransactionManagerAutoConfiguration.class,
			JobQueueAutoConfiguration.class, JobQueueNoDataSourceAutoConfiguration.class })
	static class SqliteApplication {

	}
}

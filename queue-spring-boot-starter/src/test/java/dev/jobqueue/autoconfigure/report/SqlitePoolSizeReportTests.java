package dev.jobqueue.autoconfigure.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import com.zaxxer.hikari.HikariDataSource;

/**
 * On SQLite the runtime shares the application's Hikari pool. A pool left at Boot's default of 10 grows to what the
 * runtime needs, with a warning, so that the getting-started application starts with five queues; a size the
 * application set too small fails the startup with a report naming the property and the value to set.
 */
@ExtendWith(OutputCaptureExtension.class)
class SqlitePoolSizeReportTests {

	private static final String[] FIVE_QUEUES = { "--jobqueue.queues.mail.concurrency=2",
			"--jobqueue.queues.pdf.concurrency=2", "--jobqueue.queues.sms.concurrency=2",
			"--jobqueue.queues.billing.concurrency=2" };

	@TempDir
	Path folder;

	@Test
	void aFirstStartWithFiveQueuesOnTheDefaultPoolStartsAndWarnsThatThePoolGrew(CapturedOutput output) {
		try (ConfigurableApplicationContext context = StartupReports.workingOnSqlite(folder.resolve("app.db"),
				FIVE_QUEUES)) {
			HikariDataSource pool = (HikariDataSource) context.getBean(DataSource.class);

			assertThat(pool.getMaximumPoolSize()).as("five queues plus six").isEqualTo(11);
			assertThat(output).contains("WARN")
				.contains("spring.datasource.hikari.maximum-pool-size (10) is too small for jobqueue")
				.contains("Raised to 11")
				.contains("set spring.datasource.hikari.maximum-pool-size=11 or more");
		}
	}

	@Test
	void aPoolSizeSetTooSmallFailsWithAReportNamingThePropertyAndTheValueToSet(CapturedOutput output) {
		String[] properties = new String[FIVE_QUEUES.length + 1];
		System.arraycopy(FIVE_QUEUES, 0, properties, 0, FIVE_QUEUES.length);
		properties[FIVE_QUEUES.length] = "--spring.datasource.hikari.maximum-pool-size=8";

		StartupReports.startupFails(() -> StartupReports.workingOnSqlite(folder.resolve("app.db"), properties));

		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Description:\n\nspring.datasource.hikari.maximum-pool-size (8) is too small for jobqueue")
			.contains("Action:\n\nSet spring.datasource.hikari.maximum-pool-size=11 or more")
			.doesNotContain("\tat dev.jobqueue");
	}
}

package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * On SQLite a lease that a heartbeat stuck behind the busy timeout could outlast is worth a warning at
 * startup, naming the properties to change.
 */
@ExtendWith(OutputCaptureExtension.class)
class SqliteLeaseWarningTests {

	@Test
	void aLeaseNoLongerThanTheHeartbeatPlusTheBusyTimeoutIsWarnedOf(CapturedOutput output) throws IOException {
		contextOnSqlite().withPropertyValues("jobqueue.lease-duration=6s", "jobqueue.heartbeat-interval=1s")
			.run(context -> assertThat(context).hasNotFailed());

		assertThat(output).contains("jobqueue.lease-duration (PT6S) is not longer than jobqueue.heartbeat-interval "
				+ "(PT1S) plus SQLite's busy timeout (PT5S)");
	}

	@Test
	void theDefaultLeaseIsNotWarnedOf(CapturedOutput output) throws IOException {
		contextOnSqlite().run(context -> assertThat(context).hasNotFailed());

		assertThat(output).doesNotContain("jobqueue.lease-duration");
	}

	private static ApplicationContextRunner contextOnSqlite() throws IOException {
		Path file = Files.createTempFile(Path.of("target"), "starter-lease-test", ".db");
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
					DataSourceTransactionManagerAutoConfiguration.class, JobQueueAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=jdbc:sqlite:" + file);
	}
}

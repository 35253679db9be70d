package dev.jobqueue.autoconfigure.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** A misspelled jobqueue property fails the startup with Spring Boot's report, one line per unknown name. */
@ExtendWith(OutputCaptureExtension.class)
class UnknownPropertyReportTests {

	@TempDir
	Path folder;

	@Test
	void eachUnknownPropertyIsReportedWithTheNearestKnownOne(CapturedOutput output) {
		StartupReports.startupFails(() -> StartupReports.onSqlite(folder.resolve("app.db"), List.of(),
				"--jobqueue.queue.pq.concurrency=3", "--jobqueue.retry.maxAttempt=3"));

		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Description:\n\njobqueue.queue.pq.concurrency is not a jobqueue property; did you mean "
					+ "jobqueue.queues.pq.concurrency?")
			.contains("\njobqueue.retry.maxattempt is not a jobqueue property; did you mean jobqueue.retry.max-attempts?")
			.contains("Action:\n\nCorrect the name of each, or remove it.")
			.doesNotContain("\tat dev.jobqueue");
	}
}

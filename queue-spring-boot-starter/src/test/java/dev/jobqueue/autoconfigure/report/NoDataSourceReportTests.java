package dev.jobqueue.autoconfigure.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.stereotype.Component;

import dev.jobqueue.JobQueue;
import dev.jobqueue.spring.JobHandler;

/**
 * The starter without a DataSource: an application that uses the queue fails to start with a report of
 * what to add, for SQLite, PostgreSQL and MySQL/MariaDB, instead of ignoring its handlers or naming a missing bean.
 */
@ExtendWith(OutputCaptureExtension.class)
class NoDataSourceReportTests {

	private static final String ACTION = """
			Action:

			Give the application a database for the queue to live in, beside your own tables:

			    SQLite (a file, no server): add the dependencies org.springframework.boot:spring-boot-starter-jdbc
			    and org.xerial:sqlite-jdbc, and set spring.datasource.url=jdbc:sqlite:data/app.db

			    PostgreSQL: add the dependencies org.springframework.boot:spring-boot-starter-jdbc and
			    org.postgresql:postgresql, and set spring.datasource.url=jdbc:postgresql://localhost:5432/app,
			    spring.datasource.username and spring.datasource.password

			    MySQL or MariaDB: add the dependencies org.springframework.boot:spring-boot-starter-jdbc and
			    org.mariadb.jdbc:mariadb-java-client (or com.mysql:mysql-connector-j), and set
			    spring.datasource.url=jdbc:mariadb://localhost:3306/app (or jdbc:mysql:…),
			    spring.datasource.username and spring.datasource.password

			Or set jobqueue.enabled=false to start without the queue.""";

	@Test
	void aJobHandlerWithoutADataSourceFailsTheStartupWithAReportOfWhatToAdd(CapturedOutput output) {
		StartupReports.startupFails(() -> StartupReports.withoutDataSource(List.of(MailJobs.class)));

		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Description:\n\n@JobHandler bean 'mailJobs' method " + MailJobs.class.getName()
					+ ".send(Mail) handles jobs of kind 'send-mail', but no queue could be set up: the application has "
					+ "no DataSource (no JDBC connection pool, driver or spring.datasource.url).")
			.contains(ACTION);
	}

	@Test
	void anInjectedJobQueueWithoutADataSourceFailsTheStartupWithTheSameReport(CapturedOutput output) {
		StartupReports.startupFails(() -> StartupReports.withoutDataSource(List.of(SignupService.class)));

		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Description:\n\nBean 'signupService' needs a JobQueue, but no queue could be set up: the "
					+ "application has no DataSource")
			.contains(ACTION)
			.doesNotContain("required a bean of type");
	}

	@Test
	void withTheQueueTurnedOffHandlersWithoutADataSourceStartQuietly(CapturedOutput output) {
		try (ConfigurableApplicationContext context = StartupReports.withoutDataSource(List.of(MailJobs.class),
				"--jobqueue.enabled=false")) {
			assertThat(context.getBeansOfType(JobQueue.class)).isEmpty();
		}
		assertThat(output).doesNotContain("APPLICATION FAILED TO START");
	}

	@Test
	void anInjectedJobQueueWithTheQueueTurnedOffSaysSo(CapturedOutput output) {
		StartupReports.startupFails(() -> StartupReports.withoutDataSource(List.of(SignupService.class),
				"--jobqueue.enabled=false"));

		assertThat(output).contains("Bean 'signupService' needs a JobQueue, but the queue is turned off "
				+ "(jobqueue.enabled=false).");
	}

	record Mail(String to) {
	}

	@Component("mailJobs")
	static class MailJobs {

		@JobHandler("send-mail")
		void send(Mail mail) {
		}
	}

	@Component("signupService")
	static class SignupService {

		SignupService(JobQueue jobs) {
		}
	}
}

package dev.jobqueue.sample;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import dev.jobqueue.DependencyFailure;
import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.JobQueue;
import dev.jobqueue.sample.RegistrationController.NewUser;

@Service
class RegistrationService {

	private final JdbcClient jdbc;

	private final JobQueue jobs;

	RegistrationService(JdbcClient jdbc, JobQueue jobs) {
		this.jdbc = jdbc;
		this.jobs = jobs;
	}

	/**
	 * One transaction: the user and its jobs are committed together, or none of them is. No welcome email
	 * for a registration that failed, and no registration without its email.
	 */
	@Transactional
	Registration register(NewUser user) {
		String id = UUID.randomUUID().toString();
		// Inserted only when no user has the email yet: a duplicate is no row inserted, the same on every database
		// (SQLite's driver reports every constraint violation with one error code that Spring cannot tell apart,
		// and MySQL has no ON CONFLICT). The unique index still refuses one registered at the same instant. The
		// one-row derived table is there for MySQL, which takes no WHERE in a SELECT without FROM.
		int inserted = jdbc.sql("""
				INSERT INTO app_user (id, email, name)
				SELECT :id, :email, :name FROM (SELECT 1 AS one) AS one_row
				WHERE NOT EXISTS (SELECT 1 FROM app_user WHERE email = :email)""")
			.param("id", id)
			.param("email", user.email())
			.param("name", user.name())
			.update();
		if (inserted == 0) {
			throw new DuplicateKeyException("a user with the email " + user.email() + " is already registered");
		}
		// A user's jobs share a concurrency key: one at a time, in the order enqueued, so the report waits
		// until the welcome email is done (sent, or given up after its retries), however long that takes.
		// The report is not urgent: it waits ten seconds at least, and makes way for any more important job.
		// The summary runs after both, as a workflow: whether the email went out or not, it says so.
		EnqueueOptions ofThisUser = EnqueueOptions.defaults().concurrencyKey("user-" + id);
		Map<String, Long> signup = jobs.workflow()
			.add("welcome", "send-welcome-email", new WelcomeEmail(user.email(), user.name()), ofThisUser)
			.add("report", "signup-report", new SignupReport(id), ofThisUser.delay(Duration.ofSeconds(10)).priority(8))
			.add("summary", "signup-summary", new SignupSummary(id), "welcome", "report")
			.whenDependencyFails(DependencyFailure.RUN)
			.enqueue();
		return new Registration(id, signup.get("welcome"), signup.get("report"), signup.get("summary"));
	}
}

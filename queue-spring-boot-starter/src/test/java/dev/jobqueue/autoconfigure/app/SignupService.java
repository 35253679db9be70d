package dev.jobqueue.autoconfigure.app;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.annotation.Transactional;

import dev.jobqueue.JobQueue;

/** Registers people and enqueues their welcome in the same transaction. */
public class SignupService {

	private final JdbcClient jdbc;

	private final JobQueue jobs;

	public SignupService(JdbcClient jdbc, JobQueue jobs) {
		this.jdbc = jdbc;
		this.jobs = jobs;
	}

	@Transactional
	public long signUp(Welcome welcome) {
		jdbc.sql("INSERT INTO app_signup (email, name) VALUES (:email, :name)")
			.param("email", welcome.email())
			.param("name", welcome.name())
			.update();
		return jobs.enqueue("welcome", welcome);
	}

	@Transactional
	public void signUpThenFail(Welcome welcome) {
		signUp(welcome);
		throw new IllegalStateException("payment declined for " + welcome.email());
	}

	@Transactional
	public long audit(String note) {
		return jobs.enqueue("audit", note);
	}
}

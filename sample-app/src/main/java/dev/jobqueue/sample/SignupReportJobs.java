package dev.jobqueue.sample;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import dev.jobqueue.spring.JobHandler;

@Component
class SignupReportJobs {

	private static final Logger log = LoggerFactory.getLogger(SignupReportJobs.class);

	private final JdbcClient jdbc;

	SignupReportJobs(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/** Runs on its own queue, {@code reports}, one at a time; what it returns is stored as the job's result. */
	@JobHandler(kind = "signup-report", queue = "reports")
	SignupReport.Result report(SignupReport report) {
		long users = jdbc.sql("SELECT count(*) FROM app_user").query(Long.class).single();
		log.info("Signup report for user {}: {} users so far", report.userId(), users);
		return new SignupReport.Result(report.userId(), users);
	}
}

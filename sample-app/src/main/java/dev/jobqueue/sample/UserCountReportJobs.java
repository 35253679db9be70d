package dev.jobqueue.sample;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import dev.jobqueue.JobContext;
import dev.jobqueue.spring.JobHandler;

/**
 * A recurring job: every minute, on the minute, one node of the cluster enqueues it and one worker runs it,
 * however many instances of the sample run. It takes no payload; the schedule is named after the kind.
 */
@Component
class UserCountReportJobs {

	private static final Logger log = LoggerFactory.getLogger(UserCountReportJobs.class);

	private final JdbcClient jdbc;

	UserCountReportJobs(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@JobHandler(kind = "user-count-report", queue = "reports", cron = "0 * * * * *")
	long report(JobContext context) {
		long users = jdbc.sql("SELECT count(*) FROM app_user").query(Long.class).single();
		log.info("Users so far: {} (job {})", users, context.jobId());
		return users;
	}
}

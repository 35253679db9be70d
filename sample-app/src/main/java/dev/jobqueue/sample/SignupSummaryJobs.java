package dev.jobqueue.sample;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import dev.jobqueue.Job;
import dev.jobqueue.JobContext;
import dev.jobqueue.JobState;
import dev.jobqueue.spring.JobHandler;

@Component
class SignupSummaryJobs {

	private static final Logger log = LoggerFactory.getLogger(SignupSummaryJobs.class);

	/**
	 * The last job of a signup's workflow: it runs once the welcome email and the report have both finished, however
	 * they ended, and reads what they did from the jobs it runs after.
	 */
	@JobHandler(kind = "signup-summary", queue = "reports")
	SignupSummary.Result summarize(SignupSummary summary, JobContext context) {
		boolean sent = false;
		Long users = null;
		for (Job job : context.dependencies()) {
			if (job.kind().equals("send-welcome-email")) {
				sent = job.state() == JobState.succeeded;
			}
			else if (job.kind().equals("signup-report")) {
				users = context.dependencyResult(job.id(), SignupReport.Result.class)
					.map(SignupReport.Result::usersSoFar)
					.orElse(null);
			}
		}
		log.info("Signup of user {}: welcome email {}, {} users so far", summary.userId(), sent ? "sent" : "not sent",
				users);
		return new SignupSummary.Result(summary.userId(), sent, users);
	}
}

package dev.jobqueue.sample;

import java.util.concurrent.ThreadLocalRandom;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

import dev.jobqueue.BatchCounts;
import dev.jobqueue.JobContext;
import dev.jobqueue.spring.JobHandler;

@Component
class NewsletterJobs {

	private static final Logger log = LoggerFactory.getLogger(NewsletterJobs.class);

	private final double failureRate;

	NewsletterJobs(@Value("${sample.mail.failure-rate:0.33}") double failureRate) {
		this.failureRate = failureRate;
	}

	/** Sends one copy, on the same flaky mail server as the welcome emails: three attempts, then it is given up. */
	@JobHandler(kind = "send-newsletter", maxAttempts = 3, initialBackoff = "1s")
	void send(Newsletter newsletter, JobContext context) {
		if (ThreadLocalRandom.current().nextDouble() < failureRate) {
			throw new IllegalStateException("mail server busy, try again later");
		}
		log.info("Sent issue '{}' to {} (job {}, attempt {})", newsletter.issue(), newsletter.to(), context.jobId(),
				context.attempt());
	}

	/** The batch's callback: it runs once, when every copy has been sent or given up, and reads the counts. */
	@JobHandler(kind = "newsletter-report", queue = "reports")
	NewsletterReport.Result report(NewsletterReport report, JobContext context) {
		BatchCounts copies = context.batch().orElseThrow();
		log.info("Issue '{}': {} of {} copies sent, {} given up", report.issue(), copies.succeeded(), copies.total(),
				copies.dead());
		return new NewsletterReport.Result(report.issue(), copies.succeeded(), copies.dead());
	}
}

package dev.jobqueue.sample;

import java.util.concurrent.ThreadLocalRandom;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

import dev.jobqueue.JobContext;
import dev.jobqueue.spring.JobHandler;

@Component
class WelcomeEmailJobs {

	private static final Logger log = LoggerFactory.getLogger(WelcomeEmailJobs.class);

	private final double failureRate;

	WelcomeEmailJobs(@Value("${sample.mail.failure-rate:0.33}") double failureRate) {
		this.failureRate = failureRate;
	}

	/**
	 * Renders the email, then "sends" it. The mail server here is flaky on purpose: a third of the attempts
	 * fail, and the queue tries again after about 2 s, 4 s, 8 s… up to five attempts. Rendering is a step: a
	 * retry gets the body the first attempt rendered, and does not render it again.
	 */
	@JobHandler(kind = "send-welcome-email", maxAttempts = 5, initialBackoff = "2s")
	void send(WelcomeEmail email, JobContext context) {
		String body = context.step("render", String.class, () -> {
			log.info("Rendered the welcome email to {} (job {}, once per job)", email.to(), context.jobId());
			return "Welcome, " + email.name() + "!";
		});
		if (ThreadLocalRandom.current().nextDouble() < failureRate) {
			throw new IllegalStateException("mail server busy, try again later");
		}
		log.info("Sent '{}' to {} (job {}, attempt {})", body, email.to(), context.jobId(), context.attempt());
	}
}

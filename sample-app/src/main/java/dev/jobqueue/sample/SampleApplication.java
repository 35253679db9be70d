package dev.jobqueue.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Registers users over HTTP and sends them through the queue:
 * {@link RegistrationController} → {@link RegistrationService} (one transaction: the user row and two
 * jobs) → {@link WelcomeEmailJobs} and {@link SignupReportJobs}, run by the queue's workers.
 */
@SpringBootApplication
public class SampleApplication {

	public static void main(String[] args) {
		SpringApplication.run(SampleApplication.class, args);
	}
}

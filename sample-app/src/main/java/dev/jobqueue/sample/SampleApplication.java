package dev.jobqueue.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Registers users over HTTP and sends them through the queue:
 * {@link RegistrationController} → {@link RegistrationService} (one transaction: the user row and two
 * jobs) → {@link WelcomeEmailJobs} and {@link SignupReportJobs}, run by the queue's workers.
 */
@SpringBootApplication
public class SampleApplication {

	public static void main(String[] args) throws IOException {
		// SQLite (the default profile) creates its database file on first use, but not the folder it is in.
		Files.createDirectories(Path.of("data"));
		SpringApplication.run(SampleApplication.class, args);
	}
}

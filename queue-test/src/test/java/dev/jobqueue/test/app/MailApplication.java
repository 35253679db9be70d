package dev.jobqueue.test.app;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A small application with a few handlers, for the tester's own tests. */
@SpringBootApplication
public class MailApplication {
}

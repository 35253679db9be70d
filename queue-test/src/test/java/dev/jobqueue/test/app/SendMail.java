package dev.jobqueue.test.app;

/** The payload of a {@code send-mail} job. */
public record SendMail(String to, String subject) {
}

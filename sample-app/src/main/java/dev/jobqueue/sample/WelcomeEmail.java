package dev.jobqueue.sample;

/** The payload of a {@code send-welcome-email} job. */
record WelcomeEmail(String to, String name) {
}

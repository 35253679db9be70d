package dev.jobqueue.sample;

/** The payload of a {@code send-newsletter} job: one user's copy of an issue. */
record Newsletter(String issue, String to) {
}

package dev.jobqueue.test.app;

import java.util.List;

/** The payload of a {@code newsletter} job, which enqueues a {@code send-mail} job per reader. */
public record Newsletter(String subject, List<String> readers) {
}

package dev.jobqueue.contract;

/** The payload most contract tests enqueue. */
public record Greeting(String name, int count) {
}

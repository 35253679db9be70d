package dev.jobqueue.store;

/** A successful execution waiting to be written: its lease and the handler's result in JSON (or null). */
public record Completion(Lease lease, String result) {
}

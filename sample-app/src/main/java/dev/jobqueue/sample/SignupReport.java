package dev.jobqueue.sample;

/** The payload of a {@code signup-report} job, and the result it stores. */
record SignupReport(String userId) {

	record Result(String userId, long usersSoFar) {
	}
}

package dev.jobqueue.sample;

/** The payload of a {@code signup-summary} job, and the result it stores. */
record SignupSummary(String userId) {

	record Result(String userId, boolean welcomeEmailSent, Long usersSoFar) {
	}
}

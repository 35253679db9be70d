package dev.jobqueue.sample;

/** The payload of a {@code newsletter-report} job, which runs once every copy of an issue is sent or given up. */
record NewsletterReport(String issue) {

	/** What the report found: how many copies went out, and how many were given up after their retries. */
	record Result(String issue, int sent, int failed) {
	}
}

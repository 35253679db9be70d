package dev.jobqueue.runtime;

import org.slf4j.MDC;

import dev.jobqueue.store.ClaimedJob;

/**
 * The job a thread runs, in SLF4J's MDC while its handler runs, so that every line it logs (its own, the
 * libraries it calls, ours) can be found by job: {@value #ID}, {@value #KIND} and {@value #ATTEMPT}. Removed
 * when the attempt ends, for the thread goes on to other jobs.
 */
final class JobMdc implements AutoCloseable {

	static final String ID = "jobqueue.job.id";

	static final String KIND = "jobqueue.job.kind";

	static final String ATTEMPT = "jobqueue.job.attempt";

	private JobMdc() {
	}

	static JobMdc of(ClaimedJob job) {
		MDC.put(ID, Long.toString(job.id()));
		MDC.put(KIND, job.kind());
		MDC.put(ATTEMPT, Integer.toString(job.attempt()));
		return new JobMdc();
	}

	@Override
	public void close() {
		MDC.remove(ID);
		MDC.remove(KIND);
		MDC.remove(ATTEMPT);
	}
}

package dev.jobqueue.runtime;

import java.time.Duration;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.jobqueue.JobListener.Outcome;
import dev.jobqueue.NonRetryableException;
import dev.jobqueue.RetryPolicy;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.JobStore;

/**
 * Decides and writes what a failed execution leads to: a retry after the backoff of the handler's (or the
 * default) retry policy, or dead once the attempts are used up or the error says not to retry; nothing
 * when its lease is gone; a release when the node's stop interrupted it. Each write is
 * fenced by the job's lease; one that changes nothing means another worker holds the job now.
 */
final class Failures {

	// Under the runner's name: what happened to executions is one log category for those who filter logs.
	private static final Logger log = LoggerFactory.getLogger(JobRunner.class);

	private final JobStore store;

	private final RuntimeSettings settings;

	private final OutcomeWriter outcomes;

	/** Told the queue of a retry due before the next poll, so that its poller sleeps only until then. */
	private final Consumer<String> wakeup;

	Failures(JobStore store, RuntimeSettings settings, OutcomeWriter outcomes, Consumer<String> wakeup) {
		this.store = store;
		this.settings = settings;
		this.outcomes = outcomes;
		this.wakeup = wakeup;
	}

	/** @param handler the job's handler, or null when the job never reached one */
	Outcome fail(ClaimedJob job, JobHandlerDefinition handler, Throwable error) {
		String text = ErrorText.of(error, settings.maxErrorLength());
		if (isNonRetryable(error) || job.isLastAttempt()) {
			log.warn("Job {} ({}) is dead after attempt {} of {}: {}", job.id(), job.kind(), job.attempt(),
					job.maxAttempts(), error.toString());
			return outcomes.write(job, () -> store.fail(job.lease(), text)) ? Outcome.DEAD : leaseLost(job);
		}
		RetryPolicy policy = handler != null && handler.retryPolicy() != null ? handler.retryPolicy()
				: settings.retryPolicy();
		Duration backoff = policy.backoffAfter(job.attempt());
		log.info("Job {} ({}) failed attempt {} of {}, retrying in {}: {}", job.id(), job.kind(), job.attempt(),
				job.maxAttempts(), backoff, error.toString());
		if (!outcomes.write(job, () -> store.retryLater(job.lease(), backoff, text))) {
			return leaseLost(job);
		}
		// A later one is found by the poller's own look-ahead, which spans a poll interval.
		if (backoff.compareTo(settings.pollInterval()) < 0) {
			wakeup.accept(job.queue());
		}
		return Outcome.RETRIED;
	}

	/**
	 * The handler threw, or returned past its timeout. An execution whose lease is gone (lost, or fenced
	 * locally) writes nothing: its lease decides. One interrupted by a stop is given back.
	 */
	Outcome ended(Execution execution, JobHandlerDefinition handler, Throwable thrown) {
		execution.finishing();
		// Whatever interrupt ended the handler has done its work; the writes below must not meet it.
		Thread.interrupted();
		if (!execution.isLeaseHeld()) {
			return leaseLost(execution.job());
		}
		if (execution.timedOut()) {
			return fail(execution.job(), handler, execution.timeoutError());
		}
		if (execution.isStopping()) {
			return release(execution, handler, thrown);
		}
		return fail(execution.job(), handler, thrown);
	}

	/**
	 * Gives the job back for another node, its attempt returned: once per job. A job that had its attempt
	 * given back before fails this attempt instead, so that one interrupted at every deploy still ends.
	 */
	Outcome release(Execution execution, JobHandlerDefinition handler, Throwable thrown) {
		ClaimedJob job = execution.job();
		if (outcomes.write(job, () -> store.release(job.lease()))) {
			log.info("Job {} ({}) attempt {} was interrupted by this node's shutdown; released for another node",
					job.id(), job.kind(), job.attempt());
			return Outcome.RELEASED;
		}
		return fail(job, handler, new IllegalStateException("interrupted by a shutdown of this node; a job's "
				+ "attempt is given back at most once, so this one counts", thrown));
	}

	static Outcome leaseLost(ClaimedJob job) {
		log.warn("Job {} ({}) attempt {}: lease {} was lost to another worker; its outcome was not written",
				job.id(), job.kind(), job.attempt(), job.lease().token());
		return Outcome.LEASE_LOST;
	}

	private static boolean isNonRetryable(Throwable error) {
		for (Throwable cause = error; cause != null; cause = cause.getCause()) {
			if (cause instanceof NonRetryableException) {
				return true;
			}
		}
		return false;
	}
}

package dev.jobqueue.runtime;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.jobqueue.CancelJobException;
import dev.jobqueue.JobListener.Outcome;
import dev.jobqueue.NonRetryableException;
import dev.jobqueue.RetryAfterException;
import dev.jobqueue.RetryPolicy;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.SnoozeException;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.Transition;

/**
 * Decides and writes what a failed execution leads to: a retry after the backoff of the handler's (or the
 * default) retry policy, or after the delay a {@link RetryAfterException} chose, or dead once the attempts
 * are used up or the error says not to retry; a snooze when the handler asked for one; cancelled when it
 * threw {@link CancelJobException} or called {@link dev.jobqueue.JobContext#cancel}; nothing when its
 * lease is gone (to another worker or to a cancel); a release when the node's stop interrupted it. Each
 * write is fenced by the job's lease; one that changes nothing means another worker holds the job now, or
 * that the job was cancelled. It also hands back the jobs whose handlers never started.
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
		if (Transition.ofFailure(!isNonRetryable(error), job.attempt(), job.maxAttempts()) == Transition.FAIL) {
			log.warn("Job {} ({}) is dead after attempt {} of {}: {}", job.id(), job.kind(), job.attempt(),
					job.maxAttempts(), error.toString());
			return outcomes.write(job, () -> store.outcomes().fail(job.lease(), text)) ? Outcome.DEAD : lost(job);
		}
		RetryPolicy policy = handler != null && handler.retryPolicy() != null ? handler.retryPolicy()
				: settings.retryPolicy();
		RetryAfterException retryAfter = causeOf(error, RetryAfterException.class);
		Duration backoff = retryAfter != null ? retryAfter.delay() : policy.backoffAfter(job.attempt());
		log.info("Job {} ({}) failed attempt {} of {}, retrying in {}: {}", job.id(), job.kind(), job.attempt(),
				job.maxAttempts(), backoff, error.toString());
		if (!outcomes.write(job, () -> store.outcomes().retryLater(job.lease(), backoff, text))) {
			return lost(job);
		}
		wakeIfDueSoon(job, backoff);
		return Outcome.RETRIED;
	}

	/**
	 * Puts the job back, due after the snooze's delay, its attempt given back. A job that has snoozed
	 * {@link SnoozeException#MAX_SNOOZES} times dies instead, saying so.
	 */
	private Outcome snooze(ClaimedJob job, JobHandlerDefinition handler, SnoozeException snooze) {
		if (job.snoozes() >= SnoozeException.MAX_SNOOZES) {
			return fail(job, handler, new NonRetryableException("snoozed " + job.snoozes() + " times, the most a job "
					+ "may (SnoozeException.MAX_SNOOZES); snooze for longer, or fail the job, when its wait has no end"));
		}
		log.debug("Job {} ({}) snoozed for {} after attempt {}", job.id(), job.kind(), snooze.delay(), job.attempt());
		if (!outcomes.write(job, () -> store.outcomes().snooze(job.lease(), snooze.delay()))) {
			return lost(job);
		}
		wakeIfDueSoon(job, snooze.delay());
		return Outcome.SNOOZED;
	}

	/** A job due later than a poll interval is found by the poller's own look-ahead, which spans one. */
	private void wakeIfDueSoon(ClaimedJob job, Duration delay) {
		if (delay.compareTo(settings.pollInterval()) < 0) {
			wakeup.accept(job.queue());
		}
	}

	/**
	 * The handler threw, returned past its timeout, or returned after its {@link Execution#cancel}. An execution
	 * whose lease is gone (lost, cancelled, or fenced locally) writes nothing: its lease decides. A cancel the
	 * handler asked for stands whatever it threw next; a snooze is written as one, even during a stop; any other end
	 * of one interrupted by a stop is given back.
	 */
	Outcome ended(Execution execution, JobHandlerDefinition handler, Throwable thrown) {
		execution.finishing();
		// Whatever interrupt ended the handler has done its work; the writes below must not meet it.
		Thread.interrupted();
		if (!execution.isLeaseHeld()) {
			return execution.isCancelled() ? cancelled(execution.job()) : lost(execution.job());
		}
		if (execution.timedOut()) {
			return fail(execution.job(), handler, execution.timeoutError());
		}
		if (execution.cancelRequest() != null) {
			return cancelledByHandler(execution.job(), execution.cancelRequest());
		}
		SnoozeException snooze = causeOf(thrown, SnoozeException.class);
		if (snooze != null) {
			return snooze(execution.job(), handler, snooze);
		}
		if (causeOf(thrown, CancelJobException.class) != null) {
			return cancelledByHandler(execution.job(), thrown);
		}
		if (execution.isStopping()) {
			return release(execution, handler, thrown);
		}
		return fail(execution.job(), handler, thrown);
	}

	/**
	 * The handler said the job's work is no longer wanted ({@link CancelJobException}): it ends cancelled, not
	 * retried, during a stop too, as the handler's answer is final.
	 */
	private Outcome cancelledByHandler(ClaimedJob job, Throwable thrown) {
		log.info("Job {} ({}) was cancelled by its handler in attempt {}: {}", job.id(), job.kind(), job.attempt(),
				thrown.toString());
		String text = ErrorText.of(thrown, settings.maxErrorLength());
		return outcomes.write(job, () -> store.outcomes().cancelByHandler(job.lease(), text)) ? Outcome.CANCELLED
				: lost(job);
	}

	/**
	 * Gives the job back for another node, its attempt returned: once per job. A job that had its attempt
	 * given back before fails this attempt instead, so that one interrupted at every deploy still ends.
	 */
	Outcome release(Execution execution, JobHandlerDefinition handler, Throwable thrown) {
		ClaimedJob job = execution.job();
		if (outcomes.write(job, () -> store.outcomes().release(job.lease()))) {
			log.info("Job {} ({}) attempt {} was interrupted by this node's shutdown; released for another node",
					job.id(), job.kind(), job.attempt());
			return Outcome.RELEASED;
		}
		return fail(job, handler, new IllegalStateException("interrupted by a shutdown of this node; a job's "
				+ "attempt is given back at most once, so this one counts", thrown));
	}

	/**
	 * Gives back a job whose handler never started, its attempt returned, however often; false when its lease was
	 * lost.
	 */
	boolean handBack(ClaimedJob job) {
		return outcomes.write(job, () -> store.outcomes().handBack(job.lease()));
	}

	/**
	 * An outcome write changed nothing: the job was cancelled meanwhile (looked up, for this is rare), or
	 * another worker holds it.
	 */
	Outcome lost(ClaimedJob job) {
		if (!store.claims().cancelled(List.of(job.lease())).isEmpty()) {
			return cancelled(job);
		}
		log.warn("Job {} ({}) attempt {}: lease {} was lost to another worker; its outcome was not written",
				job.id(), job.kind(), job.attempt(), job.lease().token());
		return Outcome.LEASE_LOST;
	}

	/**
	 * The handler of a job cancelled while it ran has exited: its end is written, which lets go of the lease and of
	 * the job's slot of its concurrency key, held until now so that the key's next job did not start beside it. A
	 * write that fails leaves the slot to the lease's expiry and the reaper.
	 */
	Outcome cancelled(ClaimedJob job) {
		log.info("Job {} ({}) attempt {} was cancelled while it ran; its outcome was not written", job.id(),
				job.kind(), job.attempt());
		try {
			outcomes.write(job, () -> store.outcomes().endCancelled(job.lease()));
		}
		catch (RuntimeException ex) {
			log.warn("Could not write the end of cancelled job {}; its slot is free once its lease expires: {}",
					job.id(), ex.toString());
		}
		return Outcome.CANCELLED;
	}

	private static boolean isNonRetryable(Throwable error) {
		return causeOf(error, NonRetryableException.class) != null;
	}

	/** {@code error} or its first cause of {@code type}, or null. */
	private static <T extends Throwable> T causeOf(Throwable error, Class<T> type) {
		for (Throwable cause = error; cause != null; cause = cause.getCause()) {
			if (type.isInstance(cause)) {
				return type.cast(cause);
			}
		}
		return null;
	}
}

package dev.jobqueue.runtime;

import java.time.Duration;
import java.util.Collection;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionOperations;

import dev.jobqueue.JobListener.Outcome;
import dev.jobqueue.JobListener;
import dev.jobqueue.JobTracing;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Completion;
import dev.jobqueue.store.Lease;
import dev.jobqueue.store.OutcomeStore;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs one claimed job: reads its payload ({@link PayloadReader}), calls its handler and writes the
 * outcome, fenced by the job's lease. A write that changes nothing means another worker holds the job now:
 * that is logged and counted, never thrown at the handler.
 *
 * <p>Whatever the handler throws, {@code Error}s included, is recorded as a failed attempt and the thread
 * goes on to the next job: the handler's stack has unwound by then (decision record 032 says why
 * virtual machine errors are no exception).
 */
final class JobRunner {

	private static final Logger log = LoggerFactory.getLogger(JobRunner.class);

	private final OutcomeStore store;

	private final HandlerRegistry handlers;

	private final PayloadReader payloads;

	private final ResultJson results;

	private final JobListener listener;

	private final TransactionOperations transactions;

	private final InFlightJobs inFlight;

	private final Failures failures;

	private final CompletionBatcher completions;

	private final StartConfirmations starts;

	private final Duration defaultTimeout;

	private final Consumer<ClaimedJob> ended;

	private final Consumer<ClaimedJob> started;

	private final TraceContexts traces;

	/**
	 * @param starts confirms the starts of jobs that waited in line
	 * @param ended told each job that finished (succeeded, dead, or cancelled and its handler exited), whose key's slot
	 * and dependents are then handed on
	 * @param started told each job whose handler starts
	 * @param tracing opens each execution's span, in the trace stored with the job
	 */
	JobRunner(OutcomeStore store, HandlerRegistry handlers, JsonMapper json, RuntimeSettings settings,
			JobListener listener, JobTracing tracing, TransactionOperations transactions, InFlightJobs inFlight,
			Failures failures, CompletionBatcher completions, StartConfirmations starts, Consumer<ClaimedJob> ended,
			Consumer<ClaimedJob> started) {
		this.store = store;
		this.traces = new TraceContexts(tracing);
		this.handlers = handlers;
		this.payloads = new PayloadReader(handlers, new PayloadBinding(json, settings));
		this.results = new ResultJson(json, settings.maxResultLength());
		this.listener = listener;
		this.transactions = transactions;
		this.inFlight = inFlight;
		this.failures = failures;
		this.completions = completions;
		this.starts = starts;
		this.ended = ended;
		this.started = started;
		this.defaultTimeout = settings.defaultTimeout();
	}

	/**
	 * Registers the job as in flight; call on the poller's thread, before handing the job over.
	 *
	 * @param claimSentAt {@link System#nanoTime()} when the claim was sent, where the local fence counts from
	 * @param confirmed whether its claim was confirmed: it gets a thread at once; one that waits in line for a
	 * thread confirms its start when it gets one
	 */
	Execution accept(ClaimedJob job, long claimSentAt, boolean confirmed) {
		return inFlight.add(job, claimSentAt, confirmed);
	}

	/** The leases of every job this node holds, running, in line, or its completion not yet written. */
	Collection<Lease> held() {
		return inFlight.leases();
	}

	/**
	 * Runs the job's handler, once its start is confirmed: only a job whose handler started is charged its attempt,
	 * and a job that waited in line while its queue or kind was paused is handed back instead.
	 */
	void run(Execution execution) {
		ClaimedJob job = execution.job();
		if (!confirmStart(execution)) {
			return;
		}
		if (!execution.begin()) {
			notStarted(execution);
			return;
		}
		started.accept(job);
		// The claim's time is the database's; a job of a queue with a prefetch then waited in line here.
		listener.onStarted(execution, Duration.between(job.runAt(), job.startedAt()).plus(execution.sinceAccepted()));
		long start = System.nanoTime();
		boolean handedOver = false;
		HandlerLogs.running(execution);
		try (JobMdc mdc = JobMdc.of(job); JobTracing.Span span = traces.execution(execution, job.traceContext())) {
			Outcome outcome = execute(execution, start, span);
			handedOver = outcome == null;
			if (!handedOver) {
				finished(execution, outcome, start);
			}
		}
		catch (RuntimeException ex) {
			outcomeNotRecorded(job, ex);
		}
		finally {
			HandlerLogs.done();
			execution.endNotes();
			execution.end();
			// A completion handed to the batcher stays in flight, its lease heartbeated, until written.
			if (!handedOver) {
				inFlight.remove(execution);
			}
		}
	}

	/**
	 * Confirms the start of a job that waited in line, in one statement with the other starts of the moment
	 * ({@link StartConfirmations}); true when it may start. A job the statement does not confirm is paused, and
	 * handed back, or has lost its lease, which decides then: false. When the database cannot say, the job starts
	 * unconfirmed, and the heartbeat confirms it. A job whose lease is known lost, or whose node is stopping, is
	 * left to {@link Execution#begin}, which refuses it.
	 */
	private boolean confirmStart(Execution execution) {
		if (execution.isConfirmed() || !execution.isLeaseHeld() || execution.isStopping()) {
			return true;
		}
		ClaimedJob job = execution.job();
		boolean confirmed;
		try {
			confirmed = starts.confirm(job.lease());
		}
		catch (RuntimeException ex) {
			log.warn("Could not confirm the start of job {} ({}) attempt {}; it starts, and the heartbeat confirms "
					+ "it: {}", job.id(), job.kind(), job.attempt(), ex.toString());
			return true;
		}
		if (confirmed) {
			execution.confirmed();
			return true;
		}
		handBack(execution, "its queue or kind is paused");
		return false;
	}

	/**
	 * The job waited for a thread while its lease was found lost (or the local fence closed): another
	 * node may run it already, so the handler is not called and nothing is written. Or the node is
	 * stopping: the job is handed back untouched.
	 */
	private void notStarted(Execution execution) {
		if (execution.isLeaseHeld()) {
			handBack(execution, "this node is stopping");
			return;
		}
		if (execution.isCancelled()) {
			endCancelledInLine(execution);
			return;
		}
		lostInLine(execution.job());
		inFlight.remove(execution);
	}

	/** A job cancelled while it waited in line: no handler of it ran, so its slot is let go at once. */
	private void endCancelledInLine(Execution execution) {
		try {
			failures.cancelled(execution.job());
			ended.accept(execution.job());
		}
		finally {
			inFlight.remove(execution);
		}
	}

	private static void lostInLine(ClaimedJob job) {
		log.warn("Job {} ({}) attempt {} was not started: its lease was lost before a thread took it up", job.id(),
				job.kind(), job.attempt());
	}

	/**
	 * Gives back a job whose handler never started, its attempt returned; a hand-back that changes nothing found
	 * the lease lost (a cancel, a reap), which decides then.
	 */
	private void handBack(Execution execution, String why) {
		ClaimedJob job = execution.job();
		try {
			if (failures.handBack(job)) {
				log.info("Job {} ({}) was not started, {}: handed back, its attempt given back", job.id(), job.kind(),
						why);
			}
			else if (failures.lost(job) == Outcome.CANCELLED) {
				ended.accept(job);
			}
		}
		catch (RuntimeException ex) {
			outcomeNotRecorded(job, ex);
		}
		finally {
			inFlight.remove(execution);
		}
	}

	/**
	 * Tells the listener, and hands a finished job's slot of its concurrency key and its dependents on: a job that
	 * goes back to ready (a retry, a snooze, a release) keeps its slot, so that its key's later jobs stay behind it,
	 * and so does a cancelled one until its handler exited, which it has by now.
	 */
	private void finished(Execution execution, Outcome outcome, long start) {
		listener.onFinished(execution, outcome, Duration.ofNanos(System.nanoTime() - start));
		if (outcome == Outcome.SUCCEEDED || outcome == Outcome.DEAD || outcome == Outcome.CANCELLED) {
			ended.accept(execution.job());
		}
	}

	/**
	 * The database refused the outcome write, or stayed out of reach for as long as the lease lasts. The
	 * lease is left to expire, and the reaper hands the job out again: at-least-once, never lost.
	 */
	private static void outcomeNotRecorded(ClaimedJob job, RuntimeException ex) {
		log.error("Could not record the outcome of job {} ({}); it will run again once its lease expires",
				job.id(), job.kind(), ex);
	}

	/**
	 * Hands a success to the batcher, which writes it with others and then reports the outcome. A
	 * completion the database refused (not an outage) is recorded as a failed attempt with its message.
	 */
	private void completeLater(Execution execution, JobHandlerDefinition handler, String result, long start) {
		ClaimedJob job = execution.job();
		completions.submit(new Completion(job.lease(), result), new CompletionBatcher.Written() {
			@Override
			public void written(boolean held) {
				Outcome outcome = held ? Outcome.SUCCEEDED : failures.lost(job);
				inFlight.remove(execution);
				finished(execution, outcome, start);
			}

			@Override
			public void failed(RuntimeException ex) {
				try {
					if (OutcomeWriter.isOutage(ex)) {
						outcomeNotRecorded(job, ex);
					}
					else {
						finished(execution, fail(job, handler, ex), start);
					}
				}
				finally {
					inFlight.remove(execution);
				}
			}
		});
	}

	/**
	 * Runs the handler; returns the outcome written, or null when the batcher writes it later. What the
	 * payload's binding or the handler threw is told to the execution's span.
	 */
	private Outcome execute(Execution execution, long start, JobTracing.Span span) {
		ClaimedJob job = execution.job();
		// The claim asked only for the kinds this node serves, and a registry never forgets a kind.
		JobHandlerDefinition handler = handlers.handlerFor(job.kind())
			.orElseThrow(() -> new IllegalStateException("claimed job " + job.id() + " of kind '" + job.kind()
					+ "', which this node does not serve"));
		Object payload;
		try {
			payload = payloads.read(job, handler);
		}
		catch (RuntimeException ex) {
			// Retried or dead as PayloadReader's exception says, like a handler's.
			span.failed(ex);
			execution.finishing();
			return fail(job, handler, ex);
		}
		execution.limit(handler.timeout() != null ? handler.timeout() : defaultTimeout);
		if (handler.transactional()) {
			return runInTransaction(execution, handler, payload, span);
		}
		String result;
		try {
			result = results.of(job, handler.function().handle(payload, execution));
		}
		catch (Throwable ex) {
			// Errors included, VirtualMachineErrors too (see the class comment).
			span.failed(unwrapped(ex));
			return failures.ended(execution, handler, unwrapped(ex));
		}
		execution.finishing();
		if (execution.timedOut() || execution.cancelRequest() != null) {
			return failures.ended(execution, handler, null);
		}
		completeLater(execution, handler, result, start);
		return null;
	}

	/**
	 * The handler's writes and the completion commit together or not at all. When the completion
	 * changes nothing (the lease was taken over), the transaction rolls back with the handler's work.
	 */
	private Outcome runInTransaction(Execution execution, JobHandlerDefinition handler, Object payload,
			JobTracing.Span span) {
		ClaimedJob job = execution.job();
		try {
			transactions.executeWithoutResult(status -> {
				Object result = invoke(handler, payload, execution);
				execution.finishing();
				if (execution.timedOut()) {
					throw new HandlerFailedException(execution.timeoutError());
				}
				if (execution.cancelRequest() != null) {
					// Rolls the handler's writes back; failures.ended then writes the cancel.
					throw execution.cancelRequest();
				}
				if (!store.complete(job.lease(), results.of(job, result))) {
					throw new LeaseLostException();
				}
			});
			return Outcome.SUCCEEDED;
		}
		catch (LeaseLostException ex) {
			return failures.lost(job);
		}
		catch (RuntimeException | Error ex) {
			span.failed(unwrapped(ex));
			return failures.ended(execution, handler, unwrapped(ex));
		}
	}

	private static Object invoke(JobHandlerDefinition handler, Object payload, Execution execution) {
		try {
			return handler.function().handle(payload, execution);
		}
		catch (RuntimeException | Error ex) {
			throw ex;
		}
		catch (Throwable ex) {
			throw new HandlerFailedException(ex);
		}
	}

	private Outcome fail(ClaimedJob job, JobHandlerDefinition handler, Throwable thrown) {
		return failures.fail(job, handler, unwrapped(thrown));
	}

	private static Throwable unwrapped(Throwable thrown) {
		return thrown instanceof HandlerFailedException ? thrown.getCause() : thrown;
	}

	/** Rolls back a transactional handler's work when its completion could not be written. */
	private static final class LeaseLostException extends RuntimeException {

		LeaseLostException() {
			super(null, null, false, false);
		}
	}

	/** Carries a checked exception (or any other throwable) out of a transaction callback. */
	private static final class HandlerFailedException extends RuntimeException {

		HandlerFailedException(Throwable cause) {
			super(cause);
		}
	}
}

package dev.jobqueue.runtime;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionOperations;

import dev.jobqueue.runtime.JobListener.Outcome;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Completion;
import dev.jobqueue.store.JobStore;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs one claimed job: binds its payload, calls its handler and writes the outcome, fenced by the
 * job's lease. A write that changes nothing means another worker holds the job now: that is logged
 * and counted, never thrown at the handler.
 *
 * <p>Whatever the handler throws, {@code Error}s included, is recorded as a failed attempt and the thread
 * goes on to the next job: the handler's stack has unwound by then (docs/architecture.md, Decisions,
 * "Every throwable is recorded", says why virtual machine errors are no exception).
 */
final class JobRunner {

	private static final Logger log = LoggerFactory.getLogger(JobRunner.class);

	private final JobStore store;

	private final HandlerRegistry handlers;

	private final JsonMapper json;

	private final ResultJson results;

	private final JobListener listener;

	private final TransactionOperations transactions;

	private final InFlightJobs inFlight;

	private final Failures failures;

	private final CompletionBatcher completions;

	JobRunner(JobStore store, HandlerRegistry handlers, JsonMapper json, RuntimeSettings settings,
			JobListener listener, TransactionOperations transactions, InFlightJobs inFlight, OutcomeWriter outcomes,
			CompletionBatcher completions) {
		this.store = store;
		this.handlers = handlers;
		this.json = json;
		this.results = new ResultJson(json, settings.maxResultLength());
		this.listener = listener;
		this.transactions = transactions;
		this.inFlight = inFlight;
		this.failures = new Failures(store, settings, outcomes);
		this.completions = completions;
	}

	/** Registers the job as in flight; call on the poller's thread, before handing the job over. */
	Execution accept(ClaimedJob job) {
		return inFlight.add(job);
	}

	void run(Execution execution) {
		ClaimedJob job = execution.job();
		listener.onStarted(job, Duration.between(job.runAt(), job.startedAt()));
		long start = System.nanoTime();
		execution.begin();
		boolean handedOver = false;
		try {
			Outcome outcome = execute(execution, start);
			handedOver = outcome == null;
			if (!handedOver) {
				listener.onFinished(job, outcome, Duration.ofNanos(System.nanoTime() - start));
			}
		}
		catch (RuntimeException ex) {
			outcomeNotRecorded(job, ex);
		}
		finally {
			execution.end();
			// A completion handed to the batcher stays in flight, its lease heartbeated, until written.
			if (!handedOver) {
				inFlight.remove(execution);
			}
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
				Outcome outcome = held ? Outcome.SUCCEEDED : Failures.leaseLost(job);
				inFlight.remove(execution);
				listener.onFinished(job, outcome, Duration.ofNanos(System.nanoTime() - start));
			}

			@Override
			public void failed(RuntimeException ex) {
				try {
					if (OutcomeWriter.isOutage(ex)) {
						outcomeNotRecorded(job, ex);
					}
					else {
						listener.onFinished(job, fail(job, handler, ex), Duration.ofNanos(System.nanoTime() - start));
					}
				}
				finally {
					inFlight.remove(execution);
				}
			}
		});
	}

	/** Runs the handler; returns the outcome written, or null when the batcher writes it later. */
	private Outcome execute(Execution execution, long start) {
		ClaimedJob job = execution.job();
		// The claim asked only for the kinds this node serves, and a registry never forgets a kind.
		JobHandlerDefinition handler = handlers.handlerFor(job.kind())
			.orElseThrow(() -> new IllegalStateException("claimed job " + job.id() + " of kind '" + job.kind()
					+ "', which this node does not serve"));
		Object payload;
		try {
			payload = json.readValue(job.payload(), json.getTypeFactory().constructType(handler.payloadType()));
		}
		catch (JacksonException ex) {
			// Retried, not dead: a node of a newer version, whose type binds the payload, may take it.
			execution.finishing();
			return fail(job, handler, new PayloadBindingException("payload of job " + job.id() + " does not fit "
					+ handler.payloadType().getTypeName() + " of " + handler.description() + ": "
					+ ex.getOriginalMessage(), ex));
		}
		if (handler.transactional()) {
			return runInTransaction(execution, handler, payload);
		}
		String result;
		try {
			result = results.of(job, handler.function().handle(payload, execution));
		}
		catch (Throwable ex) {
			// Errors included, VirtualMachineErrors too (see the class comment).
			execution.finishing();
			return fail(job, handler, ex);
		}
		execution.finishing();
		completeLater(execution, handler, result, start);
		return null;
	}

	/**
	 * The handler's writes and the completion commit together or not at all. When the completion
	 * changes nothing (the lease was taken over), the transaction rolls back with the handler's work.
	 */
	private Outcome runInTransaction(Execution execution, JobHandlerDefinition handler, Object payload) {
		ClaimedJob job = execution.job();
		try {
			transactions.executeWithoutResult(status -> {
				Object result = invoke(handler, payload, execution);
				execution.finishing();
				if (!store.complete(job.lease(), results.of(job, result))) {
					throw new LeaseLostException();
				}
			});
			return Outcome.SUCCEEDED;
		}
		catch (LeaseLostException ex) {
			return Failures.leaseLost(job);
		}
		catch (RuntimeException | Error ex) {
			execution.finishing();
			return fail(job, handler, ex);
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
		Throwable error = thrown instanceof HandlerFailedException ? thrown.getCause() : thrown;
		return failures.fail(job, handler, error);
	}

	/** Rolls back a transactional handler's work when its completion could not be written. */
	private static final class LeaseLostException extends RuntimeException {

		LeaseLostException() {
			super(null, null, false, false);
		}
	}

	/** A payload that the handler's type does not bind: retried like any failure. */
	private static final class PayloadBindingException extends RuntimeException {

		PayloadBindingException(String message, Throwable cause) {
			super(message, cause);
		}
	}

	/** Carries a checked exception (or any other throwable) out of a transaction callback. */
	private static final class HandlerFailedException extends RuntimeException {

		HandlerFailedException(Throwable cause) {
			super(cause);
		}
	}
}

package dev.jobqueue.runtime;

import java.time.Instant;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Lease;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs one job's handler on the calling thread, without the database: for tests (the queue-test module).
 * The payload goes to JSON and back as an enqueue and a claim would take it ({@link PayloadReader}), so a
 * payload its handler cannot bind fails here as it would in the runtime, and the result is checked as the
 * runtime checks it before writing it ({@link ResultJson}). The job was never stored: its id is 0.
 */
public final class InlineRunner {

	private final HandlerRegistry handlers;

	private final JsonMapper json;

	private final RuntimeSettings settings;

	private final PayloadReader payloads;

	private final ResultJson results;

	public InlineRunner(HandlerRegistry handlers, JsonMapper json, RuntimeSettings settings) {
		this.handlers = handlers;
		this.json = json;
		this.settings = settings;
		this.payloads = new PayloadReader(handlers, new PayloadBinding(json, settings));
		this.results = new ResultJson(json, settings.maxResultLength());
	}

	/**
	 * Runs the handler of {@code kind} on {@code payload}; returns what it returned.
	 *
	 * @throws IllegalArgumentException when no handler here serves {@code kind}, or the payload cannot be
	 * written as JSON; otherwise whatever binding the payload, the handler or checking its result throws
	 */
	public Object perform(String kind, Object payload) throws Exception {
		JobHandlerDefinition handler = handlers.handlerFor(kind)
			.orElseThrow(() -> new IllegalArgumentException("no handler here serves kind '" + kind + "' (kinds: "
					+ String.join(", ", handlers.servedVersions().keySet().stream().sorted().toList()) + ")"));
		ClaimedJob job = inline(handler, payloadJson(kind, payload));
		Object result = handler.function().handle(payloads.read(job, handler), new InlineContext(job));
		results.of(job, result);
		return result;
	}

	private String payloadJson(String kind, Object payload) {
		try {
			return json.writeValueAsString(payload);
		}
		catch (JacksonException ex) {
			throw new IllegalArgumentException("payload of kind '" + kind + "' cannot be written as JSON: "
					+ ex.getOriginalMessage(), ex);
		}
	}

	/** The job as a first claim would hand it out, of the handler's own payload version. */
	private ClaimedJob inline(JobHandlerDefinition handler, String payload) {
		int maxAttempts = (handler.retryPolicy() != null ? handler.retryPolicy() : settings.retryPolicy())
			.maxAttempts();
		Instant now = Instant.now();
		return new ClaimedJob(0, handler.queue(), handler.kind(), payload, handler.version(), 1, maxAttempts,
				EnqueueOptions.DEFAULT_PRIORITY, new Lease(0, 0), now, now, 0, null, null, false);
	}

	/** The context of a job run inline: its first attempt, a lease that is never lost. */
	private static final class InlineContext extends ClaimedJobContext {

		InlineContext(ClaimedJob job) {
			super(job);
		}

		@Override
		public boolean isLeaseHeld() {
			return true;
		}

		/** A job run inline has no row to cancel. */
		@Override
		public boolean isCancelled() {
			return false;
		}
	}
}

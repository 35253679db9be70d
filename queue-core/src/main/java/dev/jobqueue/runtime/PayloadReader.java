package dev.jobqueue.runtime;

import dev.jobqueue.NonRetryableException;
import dev.jobqueue.store.ClaimedJob;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;

/**
 * Reads a claimed job's payload as its handler's type. A payload of an older version goes through its
 * kind's upcasters first, one version at a time, as a JSON tree; one of the handler's own version, the
 * path nearly every job takes, is bound straight from its text. A property the type does not have fails
 * the binding unless that check is turned off ({@link PayloadBinding}): an upcaster must then remove the
 * fields it renames, not only add the new ones.
 *
 * <p>What it throws fails the attempt as a handler's error would: a payload that does not bind, or an
 * upcaster that failed, is retried; a missing upcaster makes the job dead, as no retry can supply it.
 */
final class PayloadReader {

	private final HandlerRegistry handlers;

	private final PayloadBinding binding;

	PayloadReader(HandlerRegistry handlers, PayloadBinding binding) {
		this.handlers = handlers;
		this.binding = binding;
	}

	Object read(ClaimedJob job, JobHandlerDefinition handler) {
		JavaType type = binding.type(handler.payloadType());
		try {
			if (job.payloadVersion() == handler.version()) {
				return binding.read(job.payload(), type);
			}
			return binding.read(upcast(job, handler, binding.tree(job.payload())), type);
		}
		catch (JacksonException ex) {
			// Retried, not dead: a node of a newer version, whose type binds the payload, may take it.
			throw new PayloadBindingException("payload of job " + job.id() + " does not fit "
					+ handler.payloadType().getTypeName() + " of " + handler.description() + ": "
					+ ex.getOriginalMessage(), ex);
		}
	}

	private JsonNode upcast(ClaimedJob job, JobHandlerDefinition handler, JsonNode payload) {
		if (job.payloadVersion() > handler.version()) {
			// The claim leaves newer versions alone; should one arrive anyway, a newer node may read it.
			throw new PayloadBindingException("payload of job " + job.id() + " has version " + job.payloadVersion()
					+ ", newer than version " + handler.version() + " that " + handler.description() + " reads", null);
		}
		JsonNode tree = payload;
		for (int version = job.payloadVersion(); version < handler.version(); version++) {
			tree = apply(step(job, handler, version), job, tree);
		}
		return tree;
	}

	private UpcasterDefinition step(ClaimedJob job, JobHandlerDefinition handler, int version) {
		return handlers.upcasterFrom(job.kind(), version)
			.orElseThrow(() -> new NonRetryableException("payload of job " + job.id() + " of kind '" + job.kind()
					+ "' has version " + job.payloadVersion() + " and " + handler.description() + " reads version "
					+ handler.version() + ", but no upcaster from version " + version + " to " + (version + 1)
					+ " is declared: declare one, with @JobPayloadUpcaster(kind = \"" + job.kind() + "\", from = "
					+ version + ") on a method JsonNode m(JsonNode) of a bean, or as a PayloadUpcaster registered "
					+ "for that kind and version"));
	}

	private static JsonNode apply(UpcasterDefinition step, ClaimedJob job, JsonNode payload) {
		JsonNode next;
		try {
			next = step.upcaster().upcast(payload);
		}
		catch (Throwable ex) {
			// Errors included, as for handlers: the upcaster's stack has unwound (JobRunner says why).
			throw new UpcastFailedException(failure(step, job, "failed"), ex);
		}
		if (next == null) {
			throw new UpcastFailedException(failure(step, job, "returned null"), null);
		}
		return next;
	}

	private static String failure(UpcasterDefinition step, ClaimedJob job, String what) {
		return "upcaster " + step.description() + " " + what + " on the payload of job " + job.id()
				+ " from version " + step.from() + " to " + step.to();
	}

	/** A payload that the handler's type does not bind: retried like any failure. */
	private static final class PayloadBindingException extends RuntimeException {

		PayloadBindingException(String message, Throwable cause) {
			super(message, cause);
		}
	}

	/** An upcaster threw: retried like a handler's failure, dead when the cause says not to retry. */
	private static final class UpcastFailedException extends RuntimeException {

		UpcastFailedException(String message, Throwable cause) {
			super(message, cause);
		}
	}
}

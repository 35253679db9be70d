package dev.jobqueue.runtime;

import dev.jobqueue.NonRetryableException;
import dev.jobqueue.store.ClaimedJob;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * A handler's return value as the JSON its job's row will hold, checked before it is written. A result
 * the database would refuse must fail its own job, with a reason an operator can read: handed to the
 * batcher it would spoil the statement of every job in the batch. What is refused is refused for good
 * (the handler would return the same again), so the job is dead at once.
 */
final class ResultJson {

	/**
	 * Said of a result that fails to serialize: the job is dead at once rather than retried, because the
	 * handler would redo its side effects only to return the same unserializable value again.
	 */
	static final String HANDLER_RAN = "; the handler returned, its work is done and is not run again: make the "
			+ "result serializable (no cycles, readable properties) or return null";

	/** Said of a step's result that fails to serialize, for the same reason as {@link #HANDLER_RAN}. */
	static final String STEP_RAN = "; the step ran, its work is done and is not run again: make its result "
			+ "serializable or return null";

	private final JsonMapper json;

	private final int maxLength;

	ResultJson(JsonMapper json, int maxLength) {
		this.json = json;
		this.maxLength = maxLength;
	}

	/** The result in JSON, or null for none; a {@link NonRetryableException} saying why it cannot be stored. */
	String of(ClaimedJob job, Object result) {
		return of("result of job " + job.id() + " (" + job.kind() + ")", result, HANDLER_RAN);
	}

	/** As {@link #of(ClaimedJob, Object)}, for the result of step {@code step} of the job. */
	String ofStep(ClaimedJob job, String step, Object result) {
		return of("result of step '" + step + "' of job " + job.id() + " (" + job.kind() + ")", result, STEP_RAN);
	}

	/** A cursor's position as JSON, or null; refused as a result is, with nothing saved. */
	String ofCursor(ClaimedJob job, String cursor, Object position) {
		return of("position of cursor '" + cursor + "' of job " + job.id() + " (" + job.kind() + ")", position, "");
	}

	private String of(String subject, Object result, String ran) {
		if (result == null) {
			return null;
		}
		String text;
		try {
			text = json.writeValueAsString(result);
		}
		catch (JacksonException ex) {
			throw refused(subject, "cannot be written as JSON: " + ex.getOriginalMessage() + ran,
					applicationCause(ex));
		}
		if (text.length() > maxLength) {
			throw refused(subject, "is " + text.length() + " characters of JSON, over jobqueue.max-result-length ("
					+ maxLength + ")", null);
		}
		if (holdsNul(text)) {
			throw refused(subject, "holds U+0000, which the database cannot store (PostgreSQL's jsonb refuses it)", null);
		}
		return text;
	}

	/**
	 * What an application's getter threw, if that is why Jackson failed; null when Jackson refused on its
	 * own (a cycle hits its nesting limit). Jackson's exception itself is left out: its message repeats the
	 * whole reference chain, 500 links of a cycle, which would fill the stored error and hide the reason.
	 */
	private static Throwable applicationCause(JacksonException ex) {
		for (Throwable cause = ex.getCause(); cause != null; cause = cause.getCause()) {
			if (!(cause instanceof JacksonException)) {
				return cause;
			}
		}
		return null;
	}

	/**
	 * Whether the JSON text holds the escape of U+0000. Only inside strings does JSON have backslashes, and
	 * each one starts an escape, so stepping from escape to escape never mistakes an escaped backslash
	 * followed by "u0000" for one.
	 */
	static boolean holdsNul(String json) {
		for (int i = json.indexOf('\\'); i >= 0; i = json.indexOf('\\', i + 2)) {
			if (json.startsWith("u0000", i + 1)) {
				return true;
			}
		}
		return json.indexOf('\u0000') >= 0;
	}

	private static NonRetryableException refused(String subject, String problem, Throwable cause) {
		return new NonRetryableException(subject + " " + problem, cause);
	}
}

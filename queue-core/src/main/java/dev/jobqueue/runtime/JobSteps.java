package dev.jobqueue.runtime;

import java.util.Map;
import java.util.function.Supplier;

import dev.jobqueue.JobContext;
import dev.jobqueue.JobCursor;
import dev.jobqueue.NonRetryableException;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.StepRows;
import dev.jobqueue.store.StepStore;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The steps of resumable jobs ({@link JobContext#step}): an execution reads its job's recorded steps once, at its
 * first step, and a step not recorded runs and is recorded, fenced by the job's lease, before its result is handed
 * back. Through the application's store, so that a transactional handler's step commits with its writes.
 */
final class JobSteps {

	/** The longest step name: what every database's key column holds. */
	static final int MAX_NAME_LENGTH = 200;

	/** What a cursor's name is kept under, apart from the steps' names. */
	static final String CURSOR_PREFIX = "cursor:";

	private final StepStore store;

	private final JsonMapper json;

	private final ResultJson results;

	JobSteps(StepStore store, JsonMapper json, ResultJson results) {
		this.store = store;
		this.json = json;
		this.results = results;
	}

	/** The steps {@code job} recorded, by name, each with its result as JSON text or null. */
	Map<String, String> recorded(ClaimedJob job) {
		return store.steps(job.id());
	}

	/**
	 * Step {@code name} of the execution whose recorded steps are {@code recorded}: their result when recorded, else
	 * what {@code work} returns, once recorded; {@code recorded} takes it in too.
	 */
	<T> T step(ClaimedJob job, Map<String, String> recorded, String name, Class<T> resultType,
			Supplier<? extends T> work) {
		check(name, resultType, work);
		if (recorded.containsKey(name)) {
			return read(job, "the recorded result of step '" + name + "'", recorded.get(name), resultType,
					"the step ran and is not run again, so its result type must read what it returned");
		}
		T result = work.get();
		String text = results.ofStep(job, name, result);
		if (!store.record(job.lease(), job.attempt(), name, text)) {
			throw new IllegalStateException("step '" + name + "' of job " + job.id() + " ran, but could not be "
					+ "recorded: this worker no longer holds the job's lease, and another may run the job now");
		}
		recorded.put(name, text);
		return result;
	}

	/**
	 * Cursor {@code name} of the execution whose recorded steps are {@code recorded}: its position read from there,
	 * each save written over it, fenced by the lease, and taken into {@code recorded} too.
	 */
	<T> JobCursor<T> cursor(ClaimedJob job, Map<String, String> recorded, String name, Class<T> type, T start) {
		checkName(name, MAX_NAME_LENGTH - CURSOR_PREFIX.length(), "cursor");
		if (type == null) {
			throw new IllegalArgumentException("cursor '" + name + "' needs a position type");
		}
		String key = CURSOR_PREFIX + name;
		return new JobCursor<>() {

			@Override
			public T position() {
				return recorded.containsKey(key) ? read(job, "the saved position of cursor '" + name + "'",
						recorded.get(key), type, "its type must read the positions saved") : start;
			}

			@Override
			public void save(T position) {
				String text = results.ofCursor(job, name, position);
				if (!store.save(job.lease(), job.attempt(), key, text)) {
					throw new IllegalStateException("cursor '" + name + "' of job " + job.id() + " could not be saved: "
							+ "this worker no longer holds the job's lease, and another may run the job now");
				}
				recorded.put(key, text);
			}
		};
	}

	private <T> T read(ClaimedJob job, String subject, String text, Class<T> resultType, String advice) {
		if (text == null) {
			return null;
		}
		try {
			return json.readValue(text, resultType);
		}
		catch (JacksonException ex) {
			throw new NonRetryableException(subject + " of job " + job.id() + " (" + job.kind() + ") does not bind to "
					+ resultType.getName() + ": " + ex.getOriginalMessage() + "; " + advice, ex);
		}
	}

	private static void check(String name, Class<?> resultType, Supplier<?> work) {
		checkName(name, MAX_NAME_LENGTH, "step");
		if (name.startsWith(CURSOR_PREFIX) || name.startsWith(StepRows.NOTE_PREFIX)) {
			throw new IllegalArgumentException("step '" + name + "' starts with '" + CURSOR_PREFIX + "' or '"
					+ StepRows.NOTE_PREFIX + "', which name a job's cursors and log notes");
		}
		if (resultType == null || work == null) {
			throw new IllegalArgumentException("step '" + name + "' needs a result type and work to run");
		}
	}

	private static void checkName(String name, int maxLength, String what) {
		if (name == null || name.isBlank() || name.length() > maxLength) {
			throw new IllegalArgumentException("a " + what + "'s name must be 1 to " + maxLength + " characters, not "
					+ "blank, was " + (name == null ? "null" : "'" + name + "'"));
		}
	}
}

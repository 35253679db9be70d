package dev.jobqueue.runtime;

import java.util.Map;
import java.util.function.Supplier;

import dev.jobqueue.JobContext;
import dev.jobqueue.NonRetryableException;
import dev.jobqueue.store.ClaimedJob;
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
			return read(job, name, recorded.get(name), resultType);
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

	private <T> T read(ClaimedJob job, String name, String text, Class<T> resultType) {
		if (text == null) {
			return null;
		}
		try {
			return json.readValue(text, resultType);
		}
		catch (JacksonException ex) {
			throw new NonRetryableException("the recorded result of step '" + name + "' of job " + job.id() + " ("
					+ job.kind() + ") does not bind to " + resultType.getName() + ": " + ex.getOriginalMessage()
					+ "; the step ran and is not run again, so its result type must read what it returned", ex);
		}
	}

	private static void check(String name, Class<?> resultType, Supplier<?> work) {
		if (name == null || name.isBlank() || name.length() > MAX_NAME_LENGTH) {
			throw new IllegalArgumentException("a step's name must be 1 to " + MAX_NAME_LENGTH + " characters, not "
					+ "blank, was " + (name == null ? "null" : "'" + name + "'"));
		}
		if (resultType == null || work == null) {
			throw new IllegalArgumentException("step '" + name + "' needs a result type and work to run");
		}
	}
}

package dev.jobqueue.runtime;

import dev.jobqueue.Job;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/** A finished job's result read back as the caller's type. */
final class JobResults {

	private JobResults() {
	}

	/** Job {@code job}'s result as {@code type}; a result that does not bind is an {@link IllegalArgumentException}. */
	static <T> T read(JsonMapper json, Job job, Class<T> type) {
		try {
			return json.readValue(job.result(), type);
		}
		catch (JacksonException ex) {
			throw new IllegalArgumentException("result of job " + job.id() + " (" + job.kind() + ") does not bind to "
					+ type.getName() + ": " + ex.getOriginalMessage(), ex);
		}
	}
}

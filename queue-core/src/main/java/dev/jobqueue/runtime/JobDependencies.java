package dev.jobqueue.runtime;

import java.util.List;
import java.util.Optional;

import dev.jobqueue.BatchCounts;
import dev.jobqueue.Job;
import dev.jobqueue.JobState;
import dev.jobqueue.store.JobStore;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a handler reads of the jobs its job runs after ({@code JobContext.dependencies}), and of its batch
 * ({@code JobContext.batch}), as they are when asked.
 */
final class JobDependencies {

	private final JobStore store;

	private final JsonMapper json;

	JobDependencies(JobStore store, JsonMapper json) {
		this.store = store;
		this.json = json;
	}

	/** The jobs job {@code jobId} runs after, in id order; one deleted since is left out. */
	List<Job> of(long jobId) {
		return store.dependencies().dependenciesOf(jobId).stream().flatMap(id -> store.reads().find(id).stream())
			.toList();
	}

	/** The counts of the batch job {@code jobId} belongs to or is a callback of. */
	Optional<BatchCounts> batch(long jobId) {
		return store.batches().rowsOf(List.of(jobId)).stream().findFirst()
			.flatMap(row -> store.batches().counts(row.batchId()));
	}

	/** The result of {@code dependencyId}, one of the jobs {@code jobId} runs after, as {@code type}. */
	<T> Optional<T> result(long jobId, long dependencyId, Class<T> type) {
		if (type == null) {
			throw new IllegalArgumentException("a result type is needed");
		}
		if (!store.dependencies().dependenciesOf(jobId).contains(dependencyId)) {
			throw new IllegalArgumentException("job " + jobId + " does not run after job " + dependencyId);
		}
		return store.reads().find(dependencyId)
			.filter(job -> job.state() == JobState.succeeded && job.result() != null)
			.map(job -> JobResults.read(json, job, type));
	}
}

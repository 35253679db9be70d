package dev.jobqueue.runtime;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.jobqueue.JobContext;
import dev.jobqueue.JobTracing;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Opens {@link JobTracing}'s spans and carries the propagation fields between them: written with the job at
 * enqueue as a JSON object (the {@code trace_context} column), read back at each execution. A plain mapper of
 * our own writes them, whatever the application's payload mapper is configured to do: they are strings only.
 */
final class TraceContexts {

	static final String MIXED = "mixed";

	private static final Logger log = LoggerFactory.getLogger(TraceContexts.class);

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final TypeReference<Map<String, String>> FIELDS = new TypeReference<>() {
	};

	private final JobTracing tracing;

	TraceContexts(JobTracing tracing) {
		this.tracing = tracing;
	}

	/**
	 * Runs {@code enqueue} inside the enqueue's span, handing it what to store with the job(s): the fields as
	 * JSON, or null when the span wrote none (nothing traced).
	 */
	<T> T enqueue(String queue, String kind, int jobs, Function<String, T> enqueue) {
		Map<String, String> context = new LinkedHashMap<>();
		JobTracing.Span span = tracing.enqueueing(queue, kind, jobs, context);
		try {
			return enqueue.apply(context.isEmpty() ? null : JSON.writeValueAsString(context));
		}
		catch (RuntimeException | Error ex) {
			span.failed(ex);
			throw ex;
		}
		finally {
			span.close();
		}
	}

	/** Opens the span of an execution, continuing the trace stored with the job, if any. */
	JobTracing.Span execution(JobContext job, String stored) {
		return tracing.executing(job, fields(job, stored));
	}

	/** A context that cannot be read starts a trace of its own rather than failing the job. */
	private static Map<String, String> fields(JobContext job, String stored) {
		if (stored == null) {
			return Map.of();
		}
		try {
			Map<String, String> fields = JSON.readValue(stored, FIELDS);
			return fields == null ? Map.of() : fields;
		}
		catch (JacksonException ex) {
			log.warn("The trace context stored with job {} ({}) is no JSON object of strings; its execution "
					+ "starts a trace of its own: {}", job.jobId(), job.kind(), ex.getOriginalMessage());
			return Map.of();
		}
	}
}

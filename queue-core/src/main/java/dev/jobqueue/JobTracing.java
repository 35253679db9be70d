package dev.jobqueue;

import java.util.Map;

/**
 * Where the queue opens a trace's spans, so that a trace reads request → enqueue → job. The queue stores the
 * propagation fields an enqueue's span writes (a {@code traceparent}, say) with the job, and hands them back to
 * the span of each execution, which continues that trace on whichever node runs it. The Spring Boot starter
 * implements it with Micrometer's Observation API; the default traces nothing and stores nothing.
 * Implementations must not throw.
 */
public interface JobTracing {

	JobTracing NONE = new JobTracing() {
	};

	/**
	 * An enqueue of {@code jobs} job(s) begins, on the caller's thread; the span it returns is closed once they
	 * are written (or refused).
	 *
	 * @param queue the jobs' queue, or {@code "mixed"} for a batch of several queues
	 * @param kind the jobs' kind, or {@code "mixed"} for a batch of several kinds
	 * @param context the propagation fields to store with the job(s), filled by the implementation; nothing is
	 * stored when it stays empty
	 */
	default Span enqueueing(String queue, String kind, int jobs, Map<String, String> context) {
		return Span.NONE;
	}

	/**
	 * An attempt of {@code job} begins, on the thread that runs its handler; the span it returns is closed on the
	 * same thread once the handler returned or threw.
	 *
	 * @param context the propagation fields stored at its enqueue, empty when there were none
	 */
	default Span executing(JobContext job, Map<String, String> context) {
		return Span.NONE;
	}

	/** A span the queue opened; closed exactly once. */
	interface Span extends AutoCloseable {

		Span NONE = () -> {
		};

		/** What the enqueue or the handler threw, before {@link #close()}. */
		default void failed(Throwable error) {
		}

		@Override
		void close();
	}
}

package dev.jobqueue.support;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.jobqueue.JobContext;
import dev.jobqueue.JobTracing;

/**
 * A {@link JobTracing} that writes one field per enqueue ({@code traceparent: enqueue-N}) and records every
 * span it opened: what an enqueue wrote, what an execution was handed back, and whether they were closed.
 */
public final class RecordingTracing implements JobTracing {

	public final List<Enqueue> enqueues = new CopyOnWriteArrayList<>();

	public final List<Execution> executions = new CopyOnWriteArrayList<>();

	private final AtomicInteger next = new AtomicInteger();

	private volatile boolean writes = true;

	/** From now on, enqueues write no field, as when no trace is current. */
	public RecordingTracing writingNothing() {
		writes = false;
		return this;
	}

	@Override
	public Span enqueueing(String queue, String kind, int jobs, Map<String, String> context) {
		if (writes) {
			context.put("traceparent", "enqueue-" + next.incrementAndGet());
		}
		Enqueue enqueue = new Enqueue(queue, kind, jobs, Map.copyOf(context));
		enqueues.add(enqueue);
		return enqueue;
	}

	@Override
	public Span executing(JobContext job, Map<String, String> context) {
		Execution execution = new Execution(job.jobId(), job.kind(), job.attempt(), Map.copyOf(context));
		executions.add(execution);
		return execution;
	}

	/** A recorded span: the error it was told of, and whether it was closed. */
	public abstract static class Recorded implements Span {

		public volatile Throwable error;

		public volatile boolean closed;

		@Override
		public void failed(Throwable error) {
			this.error = error;
		}

		@Override
		public void close() {
			closed = true;
		}
	}

	public static final class Enqueue extends Recorded {

		public final String queue;

		public final String kind;

		public final int jobs;

		public final Map<String, String> context;

		Enqueue(String queue, String kind, int jobs, Map<String, String> context) {
			this.queue = queue;
			this.kind = kind;
			this.jobs = jobs;
			this.context = context;
		}
	}

	public static final class Execution extends Recorded {

		public final long id;

		public final String kind;

		public final int attempt;

		public final Map<String, String> context;

		Execution(long id, String kind, int attempt, Map<String, String> context) {
			this.id = id;
			this.kind = kind;
			this.attempt = attempt;
			this.context = context;
		}
	}
}

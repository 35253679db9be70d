package dev.jobqueue.support;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import dev.jobqueue.JobContext;
import dev.jobqueue.JobListener;

/** Counts what a runtime reports, by outcome, and keeps each job's wait, so tests can assert on them. */
public final class CountingListener implements JobListener {

	public static final CountingListener NONE = new CountingListener();

	private final Map<Outcome, AtomicInteger> outcomes = new ConcurrentHashMap<>();

	private final Map<Long, Duration> waits = new ConcurrentHashMap<>();

	private final AtomicInteger reaped = new AtomicInteger();

	private final AtomicInteger enqueued = new AtomicInteger();

	private volatile boolean maintaining;

	@Override
	public void onEnqueued(String queue, String kind) {
		enqueued.incrementAndGet();
	}

	@Override
	public void onStarted(JobContext job, Duration wait) {
		waits.put(job.jobId(), wait);
	}

	@Override
	public void onFinished(JobContext job, Outcome outcome, Duration execution) {
		outcomes.computeIfAbsent(outcome, o -> new AtomicInteger()).incrementAndGet();
	}

	@Override
	public void onReaped(int count) {
		reaped.addAndGet(count);
	}

	@Override
	public void onMaintaining(boolean maintaining) {
		this.maintaining = maintaining;
	}

	/** What the runtime last reported: whether it is the node that maintains. */
	public boolean maintaining() {
		return maintaining;
	}

	public int count(Outcome outcome) {
		AtomicInteger count = outcomes.get(outcome);
		return count == null ? 0 : count.get();
	}

	/** The wait the runtime reported when job {@code jobId} last started; null if it never did. */
	public Duration waitOf(long jobId) {
		return waits.get(jobId);
	}

	public int enqueued() {
		return enqueued.get();
	}

	public int reaped() {
		return reaped.get();
	}
}

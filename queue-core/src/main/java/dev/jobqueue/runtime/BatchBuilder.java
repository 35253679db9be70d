package dev.jobqueue.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.jobqueue.Batch;
import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.EnqueuedBatch;

/** {@link Batch}: its jobs and callbacks kept as added, checked as they are added, written at {@link #enqueue()}. */
final class BatchBuilder implements Batch {

	/** One job of the batch, or a callback. */
	record Entry(String kind, Object payload, EnqueueOptions options) {
	}

	/** What {@link #enqueue()} writes: the jobs in the order added, each callback if set. */
	record Plan(List<Entry> jobs, Entry onFinish, Entry onFailure) {
	}

	private final Function<Plan, EnqueuedBatch> writer;

	private final List<Entry> jobs = new ArrayList<>();

	private Entry onFinish;

	private Entry onFailure;

	BatchBuilder(Function<Plan, EnqueuedBatch> writer) {
		this.writer = writer;
	}

	@Override
	public Batch add(String kind, Object payload, EnqueueOptions options) {
		require(jobs.size() < MAX_JOBS, () -> "a batch holds at most " + MAX_JOBS + " jobs");
		jobs.add(entry("a batch's job", kind, payload, options));
		return this;
	}

	@Override
	public Batch onFinish(String kind, Object payload, EnqueueOptions options) {
		onFinish = entry("a batch's callback", kind, payload, options);
		return this;
	}

	@Override
	public Batch onFailure(String kind, Object payload, EnqueueOptions options) {
		onFailure = entry("a batch's failure callback", kind, payload, options);
		return this;
	}

	@Override
	public EnqueuedBatch enqueue() {
		require(!jobs.isEmpty(), () -> "the batch has no jobs");
		return writer.apply(new Plan(List.copyOf(jobs), onFinish, onFailure));
	}

	private static Entry entry(String what, String kind, Object payload, EnqueueOptions options) {
		require(options != null, () -> what + " needs options");
		require(options.after().isEmpty(), () -> what + " cannot run after other jobs (after): a batch's callbacks "
				+ "wait for the batch, and its jobs for nothing");
		require(options.unique() == null, () -> what + " cannot have a unique key: a duplicate would not be "
				+ "enqueued, and the batch would go without it");
		return new Entry(kind, payload, options);
	}

	private static void require(boolean condition, Supplier<String> problem) {
		if (!condition) {
			throw new IllegalArgumentException(problem.get());
		}
	}
}

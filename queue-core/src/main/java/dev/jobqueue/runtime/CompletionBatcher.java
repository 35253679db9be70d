package dev.jobqueue.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.NestedExceptionUtils;

import dev.jobqueue.store.Completion;
import dev.jobqueue.store.Lease;
import dev.jobqueue.store.OutcomeStore;

/**
 * Writes the successful completions of non-transactional handlers many at a time: one fenced statement
 * for up to {@link #MAX_BATCH} jobs, sent by one flusher thread {@link #LINGER} after the first
 * completion of a batch arrived. Worker threads hand their completion over and move on to the next job.
 *
 * <p>The price: a node that dies between a handler's return and the flush leaves that job running
 * with its lease, so the reaper hands it out again and it runs twice. At-least-once delivery allows
 * exactly that; handlers that must not repeat their effects declare themselves transactional, and
 * their completion is written in their own transaction, never here.
 */
final class CompletionBatcher {

	static final int MAX_BATCH = 500;

	static final Duration LINGER = Duration.ofMillis(2);

	private static final Logger log = LoggerFactory.getLogger(CompletionBatcher.class);

	/** Told how the write of one completion went, on the flusher thread. */
	interface Written {

		/** @param held false when the lease was lost, so the completion changed nothing */
		void written(boolean held);

		/**
		 * Not written: the database stayed out of reach ({@link OutcomeWriter#isOutage}), or it refused
		 * this completion itself (alone in its statement by then: a refused batch is split).
		 */
		void failed(RuntimeException ex);
	}

	private record Pending(Completion completion, Written written) {
	}

	private final OutcomeStore store;

	private final OutcomeWriter outcomes;

	private final RoleLiveness liveness;

	/** Bounded, so that workers wait for the database rather than pile up unwritten completions. */
	private final BlockingQueue<Pending> pending = new ArrayBlockingQueue<>(MAX_BATCH * 4);

	private volatile boolean running;

	private Thread flusher;

	CompletionBatcher(OutcomeStore store, OutcomeWriter outcomes, RoleLiveness liveness) {
		this.store = store;
		this.outcomes = outcomes;
		this.liveness = liveness;
	}

	synchronized void start() {
		if (running) {
			return;
		}
		running = true;
		flusher = new NamedThreads("jobqueue-completions").newThread(this::loop);
		flusher.start();
	}

	/**
	 * Waits until everything handed over so far is written, then stops the flusher. Completions handed
	 * over later are written by the thread that hands them over.
	 */
	synchronized void stop() {
		if (!running) {
			return;
		}
		running = false;
		try {
			flusher.join();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		flusher = null;
	}

	/**
	 * Hands a completion over; blocks only while the queue of unwritten completions is full. The
	 * handler's thread may carry an interrupt (a heartbeat that believed the lease lost, a stop): the
	 * handler did return, so its completion is still handed over, and the interrupt kept for the caller.
	 */
	void submit(Completion completion, Written written) {
		boolean interrupted = Thread.interrupted();
		try {
			while (true) {
				try {
					pending.put(new Pending(completion, written));
					break;
				}
				catch (InterruptedException ex) {
					interrupted = true;
				}
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
		writeIfStopped();
	}

	/**
	 * A handler that outlived the runtime's stop (it ignored the interrupt) still has its completion
	 * written, here on its own thread. Checked after the put: either the flusher was still running then
	 * and its last pass takes this completion, or the flag says it is gone.
	 */
	private void writeIfStopped() {
		if (running) {
			return;
		}
		List<Pending> batch = new ArrayList<>();
		pending.drainTo(batch);
		if (!batch.isEmpty()) {
			flush(batch);
		}
	}

	/** Every later completion waits for this thread, so it survives whatever a pass throws. */
	private void loop() {
		List<Pending> batch = new ArrayList<>(MAX_BATCH);
		while (running || !pending.isEmpty()) {
			try {
				if (collect(batch)) {
					flush(batch);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			catch (VirtualMachineError ex) {
				liveness.fatal("completion batcher", ex);
			}
			catch (Throwable ex) {
				log.error("jobqueue's completion batcher failed; it carries on with the next batch", ex);
			}
			finally {
				batch.clear();
			}
		}
	}

	/**
	 * Waits for a first completion, then lets the linger time pass and takes what came meanwhile, up to
	 * a full batch; false if none came. It sleeps through the linger rather than waking for each
	 * completion that arrives: with short jobs that would be a context switch per job.
	 */
	private boolean collect(List<Pending> batch) throws InterruptedException {
		Pending first = pending.poll(50, TimeUnit.MILLISECONDS);
		if (first == null) {
			return false;
		}
		batch.add(first);
		TimeUnit.NANOSECONDS.sleep(LINGER.toNanos());
		pending.drainTo(batch, MAX_BATCH - batch.size());
		return true;
	}

	private void flush(List<Pending> batch) {
		Set<Lease> lost;
		try {
			List<Completion> completions = batch.stream().map(Pending::completion).toList();
			lost = outcomes.write("a batch of " + completions.size() + " completions",
					() -> store.completeAll(completions));
		}
		catch (RuntimeException ex) {
			if (batch.size() > 1 && !OutcomeWriter.isOutage(ex)) {
				split(batch, ex);
				return;
			}
			batch.forEach(p -> report(() -> p.written().failed(ex)));
			return;
		}
		catch (Error ex) {
			// Each job is told, so that none waits for a write that will not come; then the loop logs it.
			RuntimeException failure = new IllegalStateException("Writing a batch of completions failed", ex);
			batch.forEach(p -> report(() -> p.written().failed(failure)));
			throw ex;
		}
		batch.forEach(p -> report(() -> p.written().written(!lost.contains(p.completion().lease()))));
	}

	/**
	 * The database refused the batch, and one row may be the cause (a value it cannot store): each half is
	 * written apart, down to single rows, so that every other completion is written once and only the row
	 * at fault is reported failed, with the database's own message. Nothing of a refused statement was
	 * written, so no row is written twice.
	 */
	private void split(List<Pending> batch, RuntimeException ex) {
		log.warn("A batch of {} completions was refused; writing it in halves to find the row at fault: {}",
				batch.size(), NestedExceptionUtils.getMostSpecificCause(ex).toString());
		int half = batch.size() / 2;
		flush(batch.subList(0, half));
		flush(batch.subList(half, batch.size()));
	}

	/** A failing callback must not stop the flusher, or every later completion would hang. */
	private static void report(Runnable callback) {
		try {
			callback.run();
		}
		catch (RuntimeException ex) {
			log.error("Reporting a completion failed", ex);
		}
	}
}

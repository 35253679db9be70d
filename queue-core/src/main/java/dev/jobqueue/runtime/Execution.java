package dev.jobqueue.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import dev.jobqueue.BatchCounts;
import dev.jobqueue.CancelJobException;
import dev.jobqueue.Job;
import dev.jobqueue.JobContext;
import dev.jobqueue.JobCursor;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Lease;

/**
 * One running execution: the handler's {@link JobContext}, and the thread to interrupt when its lease is
 * lost (the heartbeat found it taken over, or the watchdog's local fence ran out), the job was cancelled,
 * its timeout passed, or the node stops. Interrupting and finishing synchronize on the execution so that a late interrupt can
 * never hit the thread after it moved on to another job.
 */
final class Execution extends ClaimedJobContext {

	/** How long after {@link #leaseGrantedAt} this node stops believing it holds the lease. */
	private final long fenceNanos;

	private Thread thread;

	private volatile boolean leaseHeld = true;

	private volatile boolean cancelled;

	/** {@link System#nanoTime()} when the claim's answer handed the job to this node. */
	private final long acceptedAt = System.nanoTime();

	/** {@link System#nanoTime()} when the last statement that granted the lease was sent. */
	private volatile long leaseGrantedAt;

	private volatile long startedAt;

	/** Nanoseconds the handler may run; zero for no limit. */
	private volatile long timeoutNanos;

	private volatile Duration timeout;

	private volatile boolean timedOut;

	private StackTraceElement[] whereTimedOut;

	private volatile boolean stopping;

	private boolean finishing;

	/** Whether the database holds the claim confirmed, so that a reap counts its attempt. */
	private volatile boolean confirmed;

	/** Whether a thread took the job up to run its handler. */
	private volatile boolean started;

	/** What the handler's {@link #cancel} threw: the job ends cancelled whatever the handler does next. */
	private volatile CancelJobException cancelRequest;

	private final JobSteps steps;

	private final JobNotes notes;

	private final JobDependencies dependencies;

	/** The handler's log lines and progress, from its first; then only its thread uses them. */
	private JobNotes.Notebook notebook;

	/** The job's recorded steps, read at the handler's first step; then only its thread reads and writes them. */
	private Map<String, String> recordedSteps;

	/**
	 * @param claimSentAt {@link System#nanoTime()} when the claim that leased the job was sent
	 * @param fence how long a lease is believed held after the statement that granted it was sent
	 * @param confirmed whether the claim was confirmed already: the job gets a thread at once
	 * @param steps where the handler's steps are read and recorded
	 * @param notes where the handler's log lines and progress are written
	 * @param dependencies where the handler reads the jobs its job runs after
	 */
	Execution(ClaimedJob job, long claimSentAt, Duration fence, boolean confirmed, JobSteps steps, JobNotes notes,
			JobDependencies dependencies) {
		super(job);
		this.steps = steps;
		this.notes = notes;
		this.dependencies = dependencies;
		this.leaseGrantedAt = claimSentAt;
		this.fenceNanos = fence.toNanos();
		this.confirmed = confirmed;
	}

	@Override
	public void cancel(String reason) {
		CancelJobException request = new CancelJobException(reason);
		cancelRequest = request;
		throw request;
	}

	@Override
	public List<Job> dependencies() {
		return dependencies.of(jobId());
	}

	@Override
	public <T> Optional<T> dependencyResult(long dependencyId, Class<T> type) {
		return dependencies.result(jobId(), dependencyId, type);
	}

	@Override
	public Optional<BatchCounts> batch() {
		return dependencies.batch(jobId());
	}

	@Override
	public <T> T step(String name, Class<T> resultType, Supplier<? extends T> work) {
		return steps.step(job(), recordedSteps(), name, resultType, work);
	}

	@Override
	public <T> JobCursor<T> cursor(String name, Class<T> type, T start) {
		return steps.cursor(job(), recordedSteps(), name, type, start);
	}

	@Override
	public void log(String line) {
		notebook().log(line);
	}

	@Override
	public void progress(long done, long total) {
		notebook().progress(done, total);
	}

	private JobNotes.Notebook notebook() {
		if (notebook == null) {
			notebook = notes.open(job());
		}
		return notebook;
	}

	/** Writes the log lines and progress not yet written, once the handler is done; called by its thread. */
	void endNotes() {
		if (notebook != null) {
			notebook.end();
		}
	}

	private Map<String, String> recordedSteps() {
		if (recordedSteps == null) {
			recordedSteps = steps.recorded(job());
		}
		return recordedSteps;
	}

	/** The handler's {@link #cancel}, or null when it made none. */
	CancelJobException cancelRequest() {
		return cancelRequest;
	}

	Lease lease() {
		return job().lease();
	}

	/** How long since the claim's answer handed the job here: as a thread takes it up, its time in line. */
	Duration sinceAccepted() {
		return Duration.ofNanos(System.nanoTime() - acceptedAt);
	}

	/**
	 * Attaches the current thread; false when the handler must not start: its lease was lost while it
	 * waited for a thread, or the node is stopping.
	 */
	synchronized boolean begin() {
		if (isFenced(System.nanoTime())) {
			leaseHeld = false;
		}
		if (!leaseHeld || stopping) {
			return false;
		}
		thread = Thread.currentThread();
		started = true;
		return true;
	}

	boolean isConfirmed() {
		return confirmed;
	}

	/** The database holds the claim confirmed now. */
	void confirmed() {
		confirmed = true;
	}

	/**
	 * Whether the handler started on a claim the database does not hold confirmed: its confirmation failed, and
	 * the heartbeat confirms it.
	 */
	boolean startedUnconfirmed() {
		return started && !confirmed;
	}

	/** Starts the handler's clock; {@code timeout} zero for no limit. */
	void limit(Duration timeout) {
		// The watchdog reads timeoutNanos first: written last, it publishes the start time with it.
		this.startedAt = System.nanoTime();
		this.timeout = timeout;
		this.timeoutNanos = timeout.toNanos();
	}

	/** Detaches the thread and clears any interrupt meant for this execution. */
	synchronized void end() {
		thread = null;
		Thread.interrupted();
	}

	/**
	 * The handler is done and its outcome is being written. From here on a lease the heartbeat misses
	 * may simply be the outcome already committed; if it was really lost, the fenced write says so.
	 */
	synchronized void finishing() {
		finishing = true;
	}

	/** A heartbeat sent at {@code sentAt} renewed the lease. */
	void leaseRenewed(long sentAt) {
		leaseGrantedAt = sentAt;
	}

	long leaseGrantedAt() {
		return leaseGrantedAt;
	}

	/** Whether no renewal has landed for so long that the database's lease may be running out. */
	boolean isFenced(long now) {
		return now - leaseGrantedAt >= fenceNanos;
	}

	/** Tells the handler its lease is gone and interrupts it; false when it had already finished. */
	synchronized boolean leaseLost() {
		if (finishing || !leaseHeld) {
			return false;
		}
		leaseHeld = false;
		if (thread != null) {
			thread.interrupt();
		}
		return true;
	}

	/**
	 * The job was cancelled while it ran: tells the handler and interrupts it; false when it had already
	 * finished. Its lease is gone with it, for the job is no longer running.
	 */
	synchronized boolean cancel() {
		if (finishing || !leaseHeld) {
			return false;
		}
		cancelled = true;
		leaseHeld = false;
		if (thread != null) {
			thread.interrupt();
		}
		return true;
	}

	boolean isPastTimeout(long now) {
		return timeoutNanos > 0 && !timedOut && now - startedAt >= timeoutNanos;
	}

	/** Interrupts a handler past its timeout, noting where it was; false when it had already finished. */
	synchronized boolean timeOut() {
		if (finishing || thread == null || timedOut) {
			return false;
		}
		timedOut = true;
		whereTimedOut = thread.getStackTrace();
		thread.interrupt();
		return true;
	}

	/** Once timed out, the attempt fails however the handler ends; the heartbeat no longer renews it. */
	boolean timedOut() {
		return timedOut;
	}

	/** What a timed-out attempt fails with: the timeout, and where the handler was when it passed. */
	synchronized Exception timeoutError() {
		Exception error = new TimeoutException("timed out after " + timeout);
		error.setStackTrace(whereTimedOut);
		return error;
	}

	/** The node is stopping: interrupts the handler; false when it had already finished. */
	synchronized boolean stop() {
		stopping = true;
		if (finishing) {
			return false;
		}
		if (thread != null) {
			thread.interrupt();
		}
		return true;
	}

	boolean isStopping() {
		return stopping;
	}

	@Override
	public boolean isLeaseHeld() {
		return leaseHeld;
	}

	@Override
	public boolean isCancelled() {
		return cancelled;
	}
}

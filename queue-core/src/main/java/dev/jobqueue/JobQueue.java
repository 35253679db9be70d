package dev.jobqueue;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Enqueues jobs and looks them up. When a Spring transaction is active on the queue's
 * {@code DataSource}, every call joins it: a job enqueued in a transaction that rolls back never
 * existed.
 *
 * <p>When this node has the kind's handler, the payload is checked against the handler's payload type
 * before anything is written: it must be an instance of that type (a subtype, or a primitive's box,
 * included), or a JSON value (a {@code Map}, a {@code JsonNode}, a number, a string, a boolean or a
 * collection) whose JSON binds to it as a worker would bind it; a {@code null} payload only when the
 * handler declares its parameter nullable. Any other object, such as a record of another type with the
 * same fields, is refused as the mistake it most likely is.
 */
public interface JobQueue {

	/** Enqueues a job with default options and returns its id. */
	default long enqueue(String kind, Object payload) {
		return enqueue(kind, payload, EnqueueOptions.defaults());
	}

	/**
	 * Enqueues a job and returns its id. A job with a {@link EnqueueOptions#unique unique key} that another job
	 * holds is not written: for such a duplicate this throws, where {@link #enqueueUnique} returns the holder.
	 * @throws DuplicateJobException when a job of the same kind holds the job's unique key, naming it; nothing is
	 * written, and the caller's transaction goes on
	 * @throws IllegalArgumentException for a blank or unknown kind (one that no handler of this application
	 * serves and that was not declared external), a kind holding U+0000, a payload that does not fit the
	 * kind's handler (see above, naming both types), or a payload that cannot be written as JSON, is too
	 * large or holds U+0000 (options check their own limits as they are set); nothing is sent to the
	 * database then, so the caller's transaction goes on
	 */
	long enqueue(String kind, Object payload, EnqueueOptions options);

	/** Enqueues a payload that names its own kind, with default options. */
	default long enqueue(JobArgs args) {
		return enqueue(args, EnqueueOptions.defaults());
	}

	/** Enqueues a payload that names its own kind; as {@link #enqueue(String, Object, EnqueueOptions)}. */
	default long enqueue(JobArgs args, EnqueueOptions options) {
		return enqueue(kindOf(args), args, options);
	}

	/**
	 * Enqueues a job with a unique key ({@link EnqueueOptions#unique}) and says whether it was inserted or a job of
	 * the same kind held the key already: then nothing is written and the result names the holder. The way to
	 * enqueue where a duplicate is an expected outcome, such as a deduplicated sync; {@link #enqueue} throws for one.
	 * @throws IllegalArgumentException when {@code options} has no unique key, and as
	 * {@link #enqueue(String, Object, EnqueueOptions)}
	 */
	EnqueueResult enqueueUnique(String kind, Object payload, EnqueueOptions options);

	/** {@link #enqueueUnique(String, Object, EnqueueOptions)} for a payload that names its own kind. */
	default EnqueueResult enqueueUnique(JobArgs args, EnqueueOptions options) {
		return enqueueUnique(kindOf(args), args, options);
	}

	/**
	 * Enqueues many jobs in one round trip per batch, all or nothing; the ids come back in the order given.
	 * @throws DuplicateJobException when a job of the same kind holds the unique key of one of them (one written
	 * earlier in the list included), naming the first such; none of the jobs is written then
	 * @throws IllegalArgumentException as {@link #enqueue(String, Object, EnqueueOptions)} does for any of them
	 */
	List<Long> enqueueAll(List<NewJobRequest> jobs);

	/**
	 * {@link #enqueueAll} for jobs with unique keys, where duplicates are expected: each result says whether its job
	 * was inserted or names the job that held its key (one earlier in the list included), in the order given. The
	 * others are written whatever their neighbours' outcomes.
	 * @throws IllegalArgumentException as {@link #enqueue(String, Object, EnqueueOptions)} does for any of them
	 */
	List<EnqueueResult> enqueueAllUnique(List<NewJobRequest> jobs);

	Optional<Job> find(long id);

	/**
	 * The result of job {@code id} read as {@code type} through the queue's JSON mapper, the one payloads
	 * are written with (the application's own under Spring Boot). Empty when there is no such job, it has not
	 * succeeded, or its handler returned {@code null}. Read from the stored JSON, not compared as text:
	 * PostgreSQL keeps results as {@code jsonb} and gives them back reformatted ({@link Job#result()}).
	 * @throws IllegalArgumentException when the stored result does not bind to {@code type}, with Jackson's
	 * reason
	 */
	<T> Optional<T> result(long id, Class<T> type);

	/**
	 * Cancels a job that has not finished; returns whether it was waiting, blocked, ready or running and is now
	 * cancelled. A waiting, blocked or ready job is never started; the jobs that require it to succeed
	 * ({@link EnqueueOptions#after}) are cancelled in turn. A dead job that holds the slot of its concurrency key
	 * ({@link HandlerOptions#deadJobBlocksKey(boolean)}) can be cancelled too, which lets the key's next job run. A running one is cancelled at once in the database, and the node running
	 * it learns so within a heartbeat interval: its handler's thread is interrupted and
	 * {@link JobContext#isCancelled()} turns true. Whatever that handler then returns or throws changes
	 * nothing: the job stays cancelled.
	 */
	boolean cancel(long id);

	/**
	 * Waits until job {@code id} has finished (succeeded, dead or cancelled) and returns it as then read.
	 * Woken by the database's notifications where they are on (PostgreSQL's {@code NOTIFY}, the SQLite
	 * file's change counter), else by a look every poll interval; works on a node that runs no workers.
	 *
	 * @throws AwaitTimeoutException when it has not finished within {@code timeout}; the job goes on
	 * @throws IllegalArgumentException when there is no job {@code id}, or {@code timeout} is not positive
	 * @throws IllegalStateException when the job is deleted while awaited (pruned), or the waiting thread
	 * is interrupted (its interrupt flag is kept)
	 */
	Job await(long id, Duration timeout);

	/**
	 * Puts a dead job back to ready with its attempts reset; returns whether it was dead.
	 * @throws IllegalStateException when the dead job has a unique key that another job of its kind holds
	 * ({@link Unique}), naming that job; the dead job stays dead and nothing is written
	 */
	boolean retry(long id);

	/**
	 * Pauses {@code queue} on every node until it is {@link #resume(String) resumed}: no claim that starts
	 * after the pause commits takes a job of it, so every node stops starting its jobs within a poll interval
	 * (at once, for a poller between claims), and a job a node claimed to wait in line for a thread (the queue's
	 * prefetch) goes back unstarted, its attempt given back. Jobs already running finish as usual, and jobs can
	 * still be enqueued to it. The pause is kept in the database: it outlives every node's restart. Returns whether
	 * the queue was not paused already.
	 *
	 * @throws IllegalArgumentException for a name that is no queue name ({@code [A-Za-z0-9_.-]{1,100}}), and
	 * for a queue unknown here, a likely typo: one this node does not work, that no handler here names, that is
	 * not {@code default}, was never paused and has no ready or running job in the database. Nothing is
	 * written then.
	 */
	boolean pause(String queue);

	/**
	 * Lifts the pause of {@code queue}; returns whether it was paused. This node's poller of the queue wakes
	 * once the resume commits; those of other nodes at once on PostgreSQL with notifications (and on SQLite,
	 * whose processes watch the file), else within a poll interval.
	 * @throws IllegalArgumentException for a name that is no queue name; nothing is written then
	 */
	boolean resume(String queue);

	/**
	 * Pauses the jobs of {@code kind}, in every queue, on every node, as {@link #pause(String)} pauses a
	 * queue's; returns whether the kind was not paused already.
	 * @throws IllegalArgumentException for a blank kind, one holding U+0000, or one unknown here as for
	 * {@link #enqueue(String, Object, EnqueueOptions)} (no handler here serves it and it was not declared
	 * external); nothing is written then
	 */
	boolean pauseKind(String kind);

	/**
	 * Lifts the pause of {@code kind}; returns whether it was paused. This node's poller of the queue of the
	 * kind's handler wakes at once; jobs of the kind in other queues start within a poll interval.
	 * @throws IllegalArgumentException for a blank kind or one holding U+0000; nothing is written then
	 */
	boolean resumeKind(String kind);

	/** The queues paused in the whole cluster, in name order, each with when it was paused. */
	Map<String, Instant> pausedQueues();

	/** The kinds paused in the whole cluster, in name order, each with when it was paused. */
	Map<String, Instant> pausedKinds();

	/**
	 * Why job {@code id} is not running, or what became of it: the first reason that applies, in the order of
	 * {@link JobExplanation.Reason}'s constants (README, "Why isn't my job running?"), with a sentence saying it.
	 * Reads the job, the pauses, the node registry and, as the reason needs, its concurrency key's holders or the
	 * jobs ahead of it; changes nothing. A job that does not exist is {@link JobExplanation.Reason#NOT_FOUND}.
	 */
	JobExplanation explain(long id);

	/**
	 * What job {@code id}'s handler logged ({@link JobContext#log}), every attempt's lines in order, and its latest
	 * progress ({@link JobContext#progress}); {@link JobLog#EMPTY} for a job that logged nothing, or no job. Lines
	 * and progress are written at most once per heartbeat interval while an attempt runs, and when it ends.
	 */
	JobLog log(long id);

	/**
	 * The recurring jobs of the whole cluster: listed, and added, replaced, removed, paused, resumed and triggered while
	 * it runs.
	 */
	Schedules schedules();

	/**
	 * A new, empty graph of jobs to enqueue together, each run after the ones it names ({@link Workflow}). For one
	 * job that runs after jobs already enqueued, {@link EnqueueOptions#after} is enough.
	 */
	Workflow workflow();

	/**
	 * A new, empty batch: jobs enqueued together, with callback jobs that run once when they have all finished, or at
	 * the first of them to end dead ({@link Batch}).
	 */
	Batch batch();

	/** The counts per outcome of batch {@code batchId}, or empty when there is no such batch (or no longer). */
	Optional<BatchCounts> batchCounts(long batchId);

	/** This node's queues, with how many of each one's jobs it runs at once, resized while it runs. */
	WorkerQueues queues();

	/**
	 * The live worker nodes of the whole cluster, in name order: every runtime records itself in the node registry
	 * when it starts and removes itself when it stops; one not seen for three of its heartbeat intervals (it died,
	 * or lost the database) is left out, and deleted by the maintenance node.
	 */
	List<Node> nodes();

	/**
	 * The first page of the jobs {@code query} selects, newest first (highest id first). Each page costs the
	 * same however deep it is (a keyset on the id, never OFFSET), and jobs enqueued while a caller pages
	 * through appear before its first page, never in or between later ones. A job is shown as read when its
	 * page is read: one that changed state meanwhile may no longer match the query.
	 * @throws IllegalArgumentException for a null query
	 */
	default JobPage search(JobQuery query) {
		return search(query, null);
	}

	/**
	 * The page after the one whose {@link JobPage#nextCursor()} is {@code cursor} (null: the first page).
	 * @throws IllegalArgumentException for a null query, or a cursor that no page gave
	 */
	JobPage search(JobQuery query, String cursor);

	/**
	 * Jobs by queue, then state, in the whole cluster, cheap however many finished jobs the table keeps:
	 * waiting, blocked, ready and running are exact; succeeded, cancelled and dead are counted up to 10,000 per queue
	 * and state ({@code JobCounts.FINISHED_CAP}), so that value means "at least 10,000". States with no job are
	 * left out.
	 */
	Map<String, Map<JobState, Long>> countByQueueAndState();

	/**
	 * Retries ({@link #retry(long)}) every dead job {@code query} selects (its other states are ignored), in
	 * batches of 1,000, each a transaction of its own unless the caller's transaction is under way; returns how
	 * many were retried. A dead job whose unique key another job holds stays dead, and so do all but the
	 * newest of several dead jobs of one kind and unique key; a job with a concurrency key goes back to blocked
	 * and waits for its key's slot, as a new one does.
	 * @throws IllegalArgumentException for a null query
	 */
	long retryAll(JobQuery query);

	/** {@link #retryAll(JobQuery)} for the jobs of {@code ids}; those that are not dead are left alone. */
	long retryAll(Collection<Long> ids);

	/**
	 * Cancels ({@link #cancel(long)}) every job {@code query} selects that can be cancelled: waiting, blocked, ready
	 * and running ones, and dead ones that hold their concurrency key's slot. In batches of 1,000 as
	 * {@link #retryAll(JobQuery)}; returns how many were cancelled. {@code JobQuery.all()} cancels every
	 * unfinished job: narrow the query (a queue, a kind, {@code states(JobState.ready)}) to cancel fewer.
	 * @throws IllegalArgumentException for a null query
	 */
	long cancelAll(JobQuery query);

	/** {@link #cancelAll(JobQuery)} for the jobs of {@code ids}; those that cannot be cancelled are left alone. */
	long cancelAll(Collection<Long> ids);

	/**
	 * Deletes every finished job (succeeded, dead, cancelled) that {@code query} selects, in batches of 1,000
	 * as {@link #retryAll(JobQuery)}; returns how many were deleted. Unfinished jobs are never deleted, nor a dead
	 * job that holds its concurrency key's slot ({@link HandlerOptions#deadJobBlocksKey(boolean)}): it stays until
	 * retried or cancelled.
	 * @throws IllegalArgumentException for a null query
	 */
	long deleteFinished(JobQuery query);

	private static String kindOf(JobArgs args) {
		if (args == null) {
			throw new IllegalArgumentException("args must not be null: a JobArgs payload names its kind");
		}
		return args.kind();
	}

	/** One job for {@link #enqueueAll(List)}. */
	record NewJobRequest(String kind, Object payload, EnqueueOptions options) {

		public NewJobRequest(String kind, Object payload) {
			this(kind, payload, EnqueueOptions.defaults());
		}

		/** A payload that names its own kind. */
		public NewJobRequest(JobArgs args, EnqueueOptions options) {
			this(kindOf(args), args, options);
		}

		public NewJobRequest(JobArgs args) {
			this(args, EnqueueOptions.defaults());
		}
	}
}

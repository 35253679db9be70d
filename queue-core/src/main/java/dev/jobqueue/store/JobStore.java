package dev.jobqueue.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

import dev.jobqueue.EnqueueResult;
import dev.jobqueue.Job;
import dev.jobqueue.JobQuery;
import dev.jobqueue.JobState;
import dev.jobqueue.Node;

/**
 * Every statement the queue sends, for one database. Implementations own their SQL; nothing else
 * writes any. Every write about a running job is fenced by its {@link Lease}: when the lease was
 * superseded the write changes no row and the method says so, it does not throw.
 *
 * <p>Calls join the Spring transaction bound to the store's {@code DataSource}, if there is one.
 */
public interface JobStore {

	/**
	 * How many times the reaper gives back the attempt of a claim its worker never confirmed: enough to
	 * ride out claim answers lost on the network, few enough that a job whose worker dies before the first
	 * heartbeat every time still ends dead.
	 */
	int MAX_UNCONFIRMED_REAPS = 10;

	/** A short name of the database, as used for schema locations ({@code postgresql}, {@code sqlite}). */
	String vendor();

	/**
	 * Inserts a job; returns its id, or the id of the unfinished job of the same kind that holds its unique
	 * key, and whether it inserted. Unique keys are scoped by kind: jobs of other kinds never hold them.
	 */
	EnqueueResult enqueue(NewJob job);

	/** Inserts many jobs in as few statements as the database allows; results in the order given. */
	List<EnqueueResult> enqueueAll(List<NewJob> jobs);

	Optional<Job> find(long id);

	/**
	 * blocked, ready or running → cancelled; dead → cancelled too for a dead job that holds the slot of its
	 * concurrency key, which this frees. A running job keeps its lease token, so that {@link #cancelled} can tell
	 * its worker; every outcome write of that worker then changes nothing, as for a lost lease.
	 */
	boolean cancel(long id);

	/** Those of {@code leases} whose job was cancelled while that lease held it. */
	Set<Lease> cancelled(Collection<Lease> leases);

	/**
	 * dead → ready, attempts reset, due now; dead → blocked for a job with a concurrency key, which then waits
	 * for {@link #promote} like a new one. False when the job is not dead, or when an unfinished job of its
	 * kind holds its unique key ({@link #holderOfUniqueKey}): the job then stays dead.
	 */
	boolean retryDead(long id);

	/**
	 * The unfinished job of the same kind that holds the unique key of the dead job {@code id}: why it
	 * cannot be retried.
	 */
	Optional<Long> holderOfUniqueKey(long id);

	/**
	 * Claims up to {@code limit} due jobs of {@code queue} whose kind is a key of {@code versions} and whose
	 * payload version is at most that key's value, in claim order (priority, run-at, id), leasing them to
	 * {@code owner} for {@code lease}. Jobs of other kinds, and jobs of a payload version newer than the
	 * caller reads, stay ready, untouched, for a node that serves them; so do all jobs of a paused queue and
	 * those of a paused kind ({@link #pause}). Never hands the same job to two callers.
	 *
	 * @param versions per kind the caller serves, the newest payload version it reads
	 */
	List<ClaimedJob> claim(String queue, Map<String, Integer> versions, int limit, String owner, Duration lease);

	/**
	 * Whether this store's claims can confirm themselves ({@link #claimConfirmed}): where the database sends a
	 * claim's rows before the claim commits, the claim's own update can record that they reached the worker, and
	 * spare the worker {@link #confirm}'s statement.
	 */
	default boolean confirmsInClaim() {
		return false;
	}

	/**
	 * Claims as {@link #claim}, for a worker that starts the jobs as soon as they arrive, the claim confirmed by its
	 * own update as {@link #confirm} would confirm it; only where {@link #confirmsInClaim()}. A claim that fails once
	 * its update was sent, as when the answer to its commit is lost, takes the confirmation back by another statement
	 * before it throws, so that the reaper gives back the attempts of a claim whose answer never arrived, as for
	 * {@link #claim}; if the database cannot be reached for that either, the reaper counts them.
	 */
	default List<ClaimedJob> claimConfirmed(String queue, Map<String, Integer> versions, int limit, String owner,
			Duration lease) {
		throw new UnsupportedOperationException("The " + vendor() + " store confirms a claim once its answer arrived");
	}

	/**
	 * How long until the earliest ready job that {@link #claim} would take from {@code queue} with
	 * {@code versions} is due, by the database's clock, when one is due within {@code horizon}; zero or
	 * negative when one is due already (another claim holds it, or it became due since the last claim).
	 * Jobs {@link #claim} would pass over as paused do not count.
	 * Empty when none is due within the horizon. Reads the ready index, never the table: what a poller asks
	 * before it sleeps, so that it wakes when the job is due rather than at its next poll.
	 */
	Optional<Duration> nextDueWithin(String queue, Map<String, Integer> versions, Duration horizon);

	/** running → succeeded; false when the lease was lost. */
	boolean complete(Lease lease, String resultJson);

	/** Completes many executions in one statement; returns the leases that were lost. */
	Set<Lease> completeAll(Collection<Completion> completions);

	/**
	 * running → ready, due after {@code delay}, {@code error} stored as the last error and appended to the
	 * job's error history; false when the lease was lost. Like every way back from running (snooze, release,
	 * reaper), it goes to blocked instead for a job of a key with a rate, so that its next start waits for a
	 * promotion, which counts it against the rate.
	 */
	boolean retryLater(Lease lease, Duration delay, String error);

	/**
	 * running → ready, due after {@code delay}, the attempt given back and the job's snooze count raised by
	 * one; no error is recorded. False when the lease was lost.
	 */
	boolean snooze(Lease lease, Duration delay);

	/** running → dead, {@code error} recorded as by {@link #retryLater}; false when the lease was lost. */
	boolean fail(Lease lease, String error);

	/**
	 * running → ready at once, the attempt given back: for work this worker started but will not
	 * finish (shutdown). Once per job: false when the lease was lost, or when the job had its attempt
	 * given back before, so that a job interrupted at every shutdown still uses up its attempts.
	 */
	boolean release(Lease lease);

	/**
	 * Extends the leases {@code owner} still holds, confirming their claims (the reaper then counts their
	 * attempts); returns those, the rest were lost.
	 */
	Set<Lease> heartbeat(String owner, Collection<Lease> leases, Duration lease);

	/**
	 * Confirms the claims of the leases {@code owner} still holds, as their answer reached it (the reaper
	 * then counts their attempts), and leaves their expiry alone: sent right after the claim, before any
	 * of its handlers starts, it is lighter than a heartbeat, which confirms too. Leases lost meanwhile are
	 * passed over.
	 */
	void confirm(String owner, Collection<Lease> leases);

	/**
	 * Running jobs whose lease expired go back to ready, or to dead when their attempts are spent, with
	 * "lease expired on (owner)" as their last error and on their error history. An attempt counts once
	 * the worker confirmed its claim ({@link #confirm}, {@link #heartbeat}); a lease that expires unconfirmed gives its
	 * attempt back, at most {@link #MAX_UNCONFIRMED_REAPS} times per job. Run by the maintenance node, and safe
	 * on several nodes at once, as while the maintenance lease changes hands. Returns how many were reaped.
	 */
	int reapExpired(int limit);

	/**
	 * Deletes up to {@code limit} finished jobs: succeeded and cancelled ones finished more than
	 * {@code finishedRetention} ago, dead ones more than {@code deadRetention} ago.
	 */
	int prune(Duration finishedRetention, Duration deadRetention, int limit);

	/**
	 * Vacuums the job table when it holds at least {@code deadRowThreshold} dead row versions, on a
	 * connection of its own in auto-commit, never in the caller's transaction. Does nothing where the
	 * database keeps no dead versions, or where this database user may not vacuum the table (said once,
	 * in a warning). Returns whether the table was vacuumed.
	 */
	boolean vacuumIfBloated(long deadRowThreshold);

	/**
	 * Takes the maintenance lease for {@code owner} when no one holds it or its holder's expired, or renews it
	 * when {@code owner} holds it, to expire {@code lease} from now by the database's clock; returns whether
	 * {@code owner} holds it now. One statement, in a transaction of its own where the caller is in none: at
	 * most one owner holds it at a time, by the database's clock.
	 */
	boolean holdMaintenance(String owner, Duration lease);

	/** Gives the maintenance lease up, if {@code owner} holds it, so that another owner takes it at once. */
	void releaseMaintenance(String owner);

	/** Every schedule's row, by name: the schedules of every node that ever declared one. */
	List<ScheduleState> schedules();

	/**
	 * Writes a schedule's timing and next fire time: a new row when {@code expectedVersion} is 0 and none
	 * exists, else the row still at {@code expectedVersion}, whose last fire time stays. Returns whether it
	 * wrote; false when another node wrote first.
	 */
	boolean defineSchedule(String name, String timing, Instant nextFireAt, long expectedVersion);

	/**
	 * Advances a schedule still at {@code firing.version()} and enqueues its jobs, in one transaction; returns
	 * false, changing nothing, when another node advanced or redefined it first. This compare-and-set is what
	 * makes each fire time enqueue one job in the whole cluster.
	 */
	boolean fireSchedule(ScheduleFiring firing);

	/**
	 * Pauses {@code name} for every node: from the next claim on, no claim takes a job of a paused queue, nor
	 * of a paused kind in any queue; running jobs are left alone. Returns whether it was not paused before.
	 */
	boolean pause(PauseScope scope, String name);

	/**
	 * Lifts a pause; returns whether {@code name} was paused. A resumed queue wakes the pollers of other nodes
	 * where the database can tell them (PostgreSQL's notifications).
	 */
	boolean resume(PauseScope scope, String name);

	/**
	 * Pauses {@code name} unless it was ever paused (and perhaps resumed since): the first start of a setting
	 * that a queue begins paused, which must never undo an operator's resume. Returns whether it paused.
	 */
	boolean pauseUnlessRecorded(PauseScope scope, String name);

	/** The paused names of {@code scope}, in name order, each with when it was paused. */
	Map<String, Instant> paused(PauseScope scope);

	/**
	 * Hands the free slots of these concurrency keys to their blocked jobs, first enqueued first, in a
	 * transaction of its own (whatever transaction the caller is in), and returns the queues of the jobs it
	 * made ready. A key's slots are held by its ready and running jobs, and its dead ones when they hold
	 * theirs; the key's first blocked job's limit says how many there are. Promotions of one key are
	 * serialized across nodes, so a key never has more jobs holding slots than its limit. Call it after the
	 * write that freed a slot or added a blocked job has committed.
	 */
	Set<String> promote(Collection<String> keys);

	/**
	 * Promotes ({@link #promote}) up to {@code maxKeys} keys that have blocked jobs and a free slot, in the
	 * caller's transaction if there is one: the sweep that catches slots no promotion followed (a node that
	 * stopped between its write and the promotion, a reaped or pruned job, a write in a transaction the
	 * queue did not see commit). Returns the queues of the jobs it made ready.
	 */
	Set<String> promoteWaiting(int maxKeys);

	/**
	 * Records a node in the node registry, or writes its row again (a node whose row was deleted as stale comes
	 * back): seen now, stale after {@code staleAfter} unless {@link #touchNode seen} again, by the database's clock.
	 */
	void registerNode(NodeEntry node, Duration staleAfter);

	/**
	 * Marks node {@code name} seen now, stale after {@code staleAfter}: one update of its row. False when it has
	 * no row (deleted as stale, or never written): the caller then registers it again.
	 */
	boolean touchNode(String name, Duration staleAfter);

	/** Removes node {@code name} from the registry: its clean stop. */
	void removeNode(String name);

	/** The registry's nodes that are not stale, in name order. */
	List<Node> liveNodes();

	/** Deletes the registry's stale nodes; run by the maintenance node. Returns how many. */
	int deleteStaleNodes();

	/** The database's clock now: the one every stored time is on. */
	Instant now();

	/**
	 * The slots of concurrency key {@code key} as a promotion would count them, and how many of its blocked jobs
	 * wait before job {@code id}; empty when the key has no blocked job (its first waiting job gives the limit).
	 */
	Optional<KeySlots> keySlots(String key, long id);

	/**
	 * How many due ready jobs of job {@code id}'s queue come before it in claim order (priority, run-at, id),
	 * counting up to {@code cap}: what a claim of its queue takes first.
	 */
	long readyAhead(long id, int cap);

	/** How many jobs of {@code queue} each lease owner (node name) is running. */
	Map<String, Integer> runningByOwner(String queue);

	/**
	 * The schema version the migrations recorded in {@code jobqueue_schema_version}; empty when that table
	 * does not exist: the queue's tables were never created, or are older than the version that added it.
	 * Checked at startup by {@link JobSchema#verify}.
	 */
	OptionalInt schemaVersion();

	/**
	 * Job counts by queue and state, cheap however many finished rows the table keeps: blocked, ready and running
	 * exactly, as {@link #countUnfinishedByQueue}; succeeded, cancelled and dead each up to
	 * {@link JobCounts#FINISHED_CAP}, read from the index of finished rows, so a count at the cap means at least
	 * that many. States with no job are left out.
	 */
	Map<String, Map<JobState, Long>> countByQueueAndState();

	/**
	 * Counts of blocked, ready and running jobs by queue, read from the partial indexes that hold just those
	 * rows: the cost follows the backlog and the jobs in flight, not the finished rows the table keeps.
	 */
	Map<String, Map<JobState, Long>> countUnfinishedByQueue();

	/**
	 * The ids of up to {@code limit} jobs that {@code query} selects (its page size aside) with an id below
	 * {@code beforeId}, highest first: a page of a search, or a batch of a bulk operation. Keyset pagination,
	 * never OFFSET, so each page costs the same however deep it is, and jobs enqueued meanwhile (higher ids)
	 * never shift the pages after the first.
	 */
	List<Long> searchIds(JobQuery query, long beforeId, int limit);

	/** The jobs of {@code ids} that exist, highest id first. */
	List<Job> findAll(Collection<Long> ids);

	/**
	 * {@link #retryDead} for each of {@code ids}, in one statement; returns the jobs it retried. Of several dead
	 * jobs in {@code ids} with the same kind and unique key only the newest is retried: once it is, it holds the key.
	 */
	List<ChangedJob> retryDeadAll(Collection<Long> ids);

	/** {@link #cancel} for each of {@code ids}, in one statement; returns the jobs it cancelled. */
	List<ChangedJob> cancelAll(Collection<Long> ids);

	/** Deletes those of {@code ids} that are finished (succeeded, dead or cancelled), in one statement. */
	List<ChangedJob> deleteFinished(Collection<Long> ids);

	/**
	 * How long the oldest due ready job of {@code queue} has waited since it was due, by the database's clock;
	 * zero when none is due. Paused queues and kinds count: their wait is what this shows. One probe of the
	 * ready index per priority, never the table: cheap enough to ask for every queue every few seconds.
	 */
	Duration oldestReadyAge(String queue);

	/**
	 * The jobs that finished in each of the last {@code minutes} minutes (the current one included), per queue, by
	 * queue then minute; minutes in which a queue finished nothing are left out. Reads the finished index newest
	 * first, at most {@link FinishedMinute#CAP} rows, never the whole table.
	 * @throws IllegalArgumentException for {@code minutes} outside 1 - {@link FinishedMinute#MAX_MINUTES}
	 */
	List<FinishedMinute> finishedPerMinute(int minutes);

	/**
	 * The job table's dead rows, its last vacuum and what holds back the cleanup of its dead rows, from the
	 * database's statistics; empty where the database keeps no dead row versions (SQLite).
	 */
	Optional<TableHealth> tableHealth();

	/**
	 * The highest job id the table holds, 0 when it is empty: ids only grow, so every job enqueued after
	 * this call has a higher one. For tests, which tell their own jobs from earlier ones by it.
	 */
	long newestId();

	/** Up to {@code limit} jobs whose id is above {@code id}, in any state, in id order. For tests. */
	List<Job> findNewerThan(long id, int limit);

	/**
	 * Moves the due time of every ready or blocked job {@code by} earlier, as if that much time had passed;
	 * returns how many moved. For tests, whose delayed jobs and retries then become due without waiting, those
	 * waiting behind their concurrency key included: the database's clock, which decides what is due, cannot
	 * be moved.
	 */
	int bringReadyForward(Duration by);
}

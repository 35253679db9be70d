package dev.jobqueue.store.sqlite;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

import javax.sql.DataSource;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.EnqueueResult;
import dev.jobqueue.Job;
import dev.jobqueue.JobQuery;
import dev.jobqueue.JobState;
import dev.jobqueue.Node;
import dev.jobqueue.store.BatchTransactions;
import dev.jobqueue.store.ChangedJob;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Completion;
import dev.jobqueue.store.FinishedMinute;
import dev.jobqueue.store.JobCounts;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.KeySlots;
import dev.jobqueue.store.Lease;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.NodeEntry;
import dev.jobqueue.store.PauseScope;
import dev.jobqueue.store.ScheduleFiring;
import dev.jobqueue.store.ScheduleState;
import dev.jobqueue.store.TableHealth;

/**
 * The queue's SQL for SQLite, on the connections {@link SqliteDataSources#forQueue} prepares (WAL, busy
 * timeout, immediate transactions). Every time is the database's clock, {@code unixepoch('subsec')}, in
 * epoch milliseconds: the processes sharing a database file share a machine, and through SQLite they
 * share one clock reading per statement. The statements are grouped by role: {@link SqliteEnqueue},
 * {@link SqliteLeases} (claim and the fenced writes), {@link SqliteMaintenance} (reaper, pruner),
 * {@link SqliteMaintenanceLease} (which node maintains), {@link SqliteHandlerControl} (snooze, cancel),
 * {@link SqliteSchedules} (recurring jobs), {@link SqlitePauses}, {@link SqliteNodes} (the node registry),
 * {@link SqliteExplain} (what {@code JobQueue.explain} reads), {@link SqliteSearch}, {@link SqliteCounts} and
 * {@link SqliteBulk} (the operator's search, counts and bulk operations), {@link SqliteTelemetry} (the
 * queue-health meters' reads), {@link SqliteTestSupport} (for tests).
 */
public final class SqliteJobStore implements JobStore {

	public static final String VENDOR = "sqlite";

	private final JdbcClient jdbc;

	private final SqliteStatements statements;

	private final SqliteEnqueue enqueue;

	private final SqliteLeases leases;

	private final SqliteMaintenance maintenance;

	private final SqliteHandlerControl control;

	private final SqliteSchedules schedules;

	private final SqlitePauses pauses;

	private final SqlitePromotions promotions;

	private final SqliteMaintenanceLease maintenanceLease;

	private final SqliteNodes nodes;

	private final SqliteExplain explain;

	private final SqliteSearch search;

	private final SqliteCounts counts;

	private final SqliteBulk bulk;

	private final SqliteTelemetry telemetry;

	private final SqliteTestSupport testSupport;

	/** Switches the database to WAL, and fails when it cannot be (see {@link SqliteDataSources}). */
	public SqliteJobStore(DataSource dataSource) {
		SqliteQueueDataSource queue = SqliteDataSources.queueView(dataSource);
		this.jdbc = JdbcClient.create(queue);
		this.statements = new SqliteStatements(queue);
		BatchTransactions transactions = new BatchTransactions(queue);
		this.enqueue = new SqliteEnqueue(jdbc, statements, transactions);
		this.leases = new SqliteLeases(jdbc, statements);
		this.maintenance = new SqliteMaintenance(jdbc, statements);
		this.control = new SqliteHandlerControl(jdbc, statements);
		this.schedules = new SqliteSchedules(jdbc, statements, enqueue, transactions);
		this.pauses = new SqlitePauses(jdbc, statements);
		this.promotions = new SqlitePromotions(queue, jdbc, statements);
		this.maintenanceLease = new SqliteMaintenanceLease(jdbc, statements);
		this.nodes = new SqliteNodes(jdbc, statements);
		this.explain = new SqliteExplain(jdbc, statements);
		this.search = new SqliteSearch(jdbc, statements);
		this.counts = new SqliteCounts(jdbc, statements);
		this.bulk = new SqliteBulk(jdbc, statements);

		this.telemetry = new SqliteTelemetry(jdbc, statements);
		this.testSupport = new SqliteTestSupport(jdbc, statements);
	}

	@Override
	public String vendor() {
		return VENDOR;
	}

	@Override
	public EnqueueResult enqueue(NewJob job) {
		return enqueue.enqueue(job);
	}

	@Override
	public List<EnqueueResult> enqueueAll(List<NewJob> jobs) {
		return enqueue.enqueueAll(jobs);
	}

	@Override
	public Optional<Job> find(long id) {
		return statements.read("find", () -> jdbc.sql("""
				SELECT id, queue, kind, payload, payload_version, state, priority, run_at, attempt, max_attempts,
				       lease_owner, lease_expires_at, unique_key, last_error, result, created_at, started_at,
				       finished_at, errors, concurrency_key
				FROM jobqueue_job WHERE id = :id""")
			.param("id", id)
			.query(SqliteRows::job)
			.optional());
	}

	@Override
	public Set<String> promote(Collection<String> keys) {
		return promotions.promote(keys);
	}

	@Override
	public Set<String> promoteWaiting(int maxKeys) {
		return promotions.promoteWaiting(maxKeys);
	}

	@Override
	public boolean cancel(long id) {
		return control.cancel(id);
	}

	@Override
	public Set<Lease> cancelled(Collection<Lease> leases) {
		return control.cancelled(leases);
	}

	@Override
	public boolean snooze(Lease lease, Duration delay) {
		return control.snooze(lease, delay);
	}

	@Override
	public boolean retryDead(long id) {
		// A job with a concurrency key goes back to blocked and waits for a slot, as a new one does.
		// NOT EXISTS leaves the job dead when an unfinished job holds its key, which the update would break.
		return statements.write("retry dead", () -> jdbc.sql("""
				UPDATE jobqueue_job
				SET state = CASE WHEN concurrency_key IS NULL THEN 'ready' ELSE 'blocked' END, attempt = 0,
				    run_at = CAST(round(unixepoch('subsec') * 1000) AS INTEGER), finished_at = NULL
				WHERE id = :id AND state = 'dead'
				  AND NOT EXISTS (SELECT 1 FROM jobqueue_job AS holder
				                  WHERE holder.kind = jobqueue_job.kind AND holder.unique_key = jobqueue_job.unique_key
				                    AND holder.state IN ('blocked', 'ready', 'running'))""").param("id", id).update()) == 1;
	}

	@Override
	public Optional<Long> holderOfUniqueKey(long id) {
		return statements.read("holder of unique key", () -> jdbc.sql("""
				SELECT holder.id FROM jobqueue_job AS job
				JOIN jobqueue_job AS holder ON holder.kind = job.kind AND holder.unique_key = job.unique_key
				WHERE job.id = :id AND job.state = 'dead' AND holder.id <> job.id AND holder.state IN ('blocked', 'ready', 'running')""")
			.param("id", id)
			.query(Long.class)
			.optional());
	}

	@Override
	public List<ClaimedJob> claim(String queue, Map<String, Integer> versions, int limit, String owner,
			Duration lease) {
		return leases.claim(queue, versions, limit, owner, lease);
	}

	@Override
	public Optional<Duration> nextDueWithin(String queue, Map<String, Integer> versions, Duration horizon) {
		return leases.nextDueWithin(queue, versions, horizon);
	}

	@Override
	public boolean complete(Lease lease, String resultJson) {
		return leases.complete(lease, resultJson);
	}

	@Override
	public Set<Lease> completeAll(Collection<Completion> completions) {
		return leases.completeAll(completions);
	}

	@Override
	public boolean retryLater(Lease lease, Duration delay, String error) {
		return leases.retryLater(lease, delay, error);
	}

	@Override
	public boolean fail(Lease lease, String error) {
		return leases.fail(lease, error);
	}

	@Override
	public boolean release(Lease lease) {
		return leases.release(lease);
	}

	@Override
	public Set<Lease> heartbeat(String owner, Collection<Lease> held, Duration lease) {
		return leases.heartbeat(owner, held, lease);
	}

	@Override
	public void confirm(String owner, Collection<Lease> held) {
		leases.confirm(owner, held);
	}

	@Override
	public int reapExpired(int limit) {
		return maintenance.reapExpired(limit);
	}

	@Override
	public int prune(Duration finishedRetention, Duration deadRetention, int limit) {
		return maintenance.prune(finishedRetention, deadRetention, limit);
	}

	/**
	 * Nothing to do: SQLite keeps no dead versions of rows. An update rewrites the row in place, a delete
	 * frees its space at once, and the pages it frees go to the file's freelist, from which the next
	 * inserts take theirs. Its VACUUM only shrinks the file, by rewriting all of it under the write lock,
	 * which would stop every claim while it runs and leave the claims no faster after.
	 */
	@Override
	public boolean vacuumIfBloated(long deadRowThreshold) {
		return false;
	}

	@Override
	public boolean holdMaintenance(String owner, Duration lease) {
		return maintenanceLease.hold(owner, lease);
	}

	@Override
	public void releaseMaintenance(String owner) {
		maintenanceLease.release(owner);
	}

	@Override
	public List<ScheduleState> schedules() {
		return schedules.schedules();
	}

	@Override
	public boolean defineSchedule(String name, String timing, Instant nextFireAt, long expectedVersion) {
		return schedules.define(name, timing, nextFireAt, expectedVersion);
	}

	@Override
	public boolean fireSchedule(ScheduleFiring firing) {
		return schedules.fire(firing);
	}

	@Override
	public boolean pause(PauseScope scope, String name) {
		return pauses.pause(scope, name);
	}

	@Override
	public boolean resume(PauseScope scope, String name) {
		return pauses.resume(scope, name);
	}

	@Override
	public boolean pauseUnlessRecorded(PauseScope scope, String name) {
		return pauses.pauseUnlessRecorded(scope, name);
	}

	@Override
	public Map<String, Instant> paused(PauseScope scope) {
		return pauses.paused(scope);
	}

	@Override
	public void registerNode(NodeEntry node, Duration staleAfter) {
		nodes.register(node, staleAfter);
	}

	@Override
	public boolean touchNode(String name, Duration staleAfter) {
		return nodes.touch(name, staleAfter);
	}

	@Override
	public void removeNode(String name) {
		nodes.remove(name);
	}

	@Override
	public List<Node> liveNodes() {
		return nodes.live();
	}

	@Override
	public int deleteStaleNodes() {
		return nodes.deleteStale();
	}

	@Override
	public Instant now() {
		return explain.now();
	}

	@Override
	public Optional<KeySlots> keySlots(String key, long id) {
		return explain.keySlots(key, id);
	}

	@Override
	public long readyAhead(long id, int cap) {
		return explain.readyAhead(id, cap);
	}

	@Override
	public Map<String, Integer> runningByOwner(String queue) {
		return explain.runningByOwner(queue);
	}

	@Override
	public OptionalInt schemaVersion() {
		return maintenance.schemaVersion();
	}

	@Override
	public Map<String, Map<JobState, Long>> countByQueueAndState() {
		return counts.everyState();
	}

	@Override
	public Map<String, Map<JobState, Long>> countUnfinishedByQueue() {
		return statements.read("count", () -> JobCounts.query(jdbc, JobCounts.UNFINISHED));
	}

	@Override
	public List<Long> searchIds(JobQuery query, long beforeId, int limit) {
		return search.searchIds(query, beforeId, limit);
	}

	@Override
	public List<Job> findAll(Collection<Long> ids) {
		return search.findAll(ids);
	}

	@Override
	public List<ChangedJob> retryDeadAll(Collection<Long> ids) {
		return bulk.retryDeadAll(ids);
	}

	@Override
	public List<ChangedJob> cancelAll(Collection<Long> ids) {
		return bulk.cancelAll(ids);
	}

	@Override
	public List<ChangedJob> deleteFinished(Collection<Long> ids) {
		return bulk.deleteFinished(ids);
	}

	@Override
	public Duration oldestReadyAge(String queue) {
		return telemetry.oldestReadyAge(queue);
	}

	@Override
	public List<FinishedMinute> finishedPerMinute(int minutes) {
		return telemetry.finishedPerMinute(FinishedMinute.checkMinutes(minutes));
	}

	/** SQLite rewrites rows in place: it keeps no dead row versions for a vacuum to take out. */
	@Override
	public Optional<TableHealth> tableHealth() {
		return Optional.empty();
	}

	@Override
	public long newestId() {
		return testSupport.newestId();
	}

	@Override
	public List<Job> findNewerThan(long id, int limit) {
		return testSupport.findNewerThan(id, limit);
	}

	@Override
	public int bringReadyForward(Duration by) {
		return testSupport.bringReadyForward(by);
	}
}

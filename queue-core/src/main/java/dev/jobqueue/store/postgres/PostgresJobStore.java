package dev.jobqueue.store.postgres;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

import javax.sql.DataSource;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.EnqueueResult;
import dev.jobqueue.Job;
import dev.jobqueue.JobQuery;
import dev.jobqueue.JobState;
import dev.jobqueue.Node;
import dev.jobqueue.store.ChangedJob;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Completion;
import dev.jobqueue.store.FinishedMinute;
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
 * The queue's SQL for PostgreSQL. Every time is the database's {@code now()}, so nodes with skewed
 * clocks still agree on what is due and which lease has expired. The statements live in three
 * package-private classes by role: {@link PostgresEnqueue}, {@link PostgresExecution} (claim and
 * outcomes) and {@link PostgresMaintenance}, plus {@link PostgresVacuum}, {@link PostgresSchedules},
 * {@link PostgresPauses}, {@link PostgresMaintenanceLease}, {@link PostgresNodes} (the node registry),
 * {@link PostgresExplain} (what {@code JobQueue.explain} reads), {@link PostgresSearch} and {@link PostgresBulk}
 * (the operator's search and bulk operations), {@link PostgresTelemetry} (the queue-health meters' reads) and,
 * for tests, {@link PostgresTestSupport}.
 */
public final class PostgresJobStore implements JobStore {

	public static final String VENDOR = "postgresql";

	/**
	 * The least time between two notifications of a queue from one store: what a listener may wait beyond
	 * an enqueue's commit when another enqueue of the queue was just announced (BENCHMARKS.md, enqueue-16).
	 */
	public static final Duration NOTIFY_INTERVAL = Duration.ofMillis(10);

	private final PostgresEnqueue enqueue;

	private final PostgresExecution execution;

	private final PostgresMaintenance maintenance;

	private final PostgresHandlerControl control;

	private final PostgresVacuum vacuum;

	private final PostgresSchedules schedules;

	private final PostgresPauses pauses;

	private final PostgresPromotions promotions;

	private final PostgresMaintenanceLease maintenanceLease;

	private final PostgresNodes nodes;

	private final PostgresExplain explain;

	private final PostgresSearch search;

	private final PostgresBulk bulk;

	private final PostgresTelemetry telemetry;

	private final PostgresTestSupport testSupport;

	/** A store that notifies listeners ({@link PostgresNotificationListener}) of every job due now. */
	public PostgresJobStore(DataSource dataSource) {
		this(dataSource, true);
	}

	/**
	 * @param notify whether jobs due now send {@code pg_notify('jobqueue_ready', queue)}; false for
	 * poll-only operation, e.g. behind PgBouncer in transaction pooling mode, where LISTEN cannot work
	 */
	public PostgresJobStore(DataSource dataSource, boolean notify) {
		this(dataSource, notify, Duration.ZERO);
	}

	/**
	 * A store whose statements give up after {@code statementTimeout} (zero: never), for the runtime's own
	 * statements: a claim, heartbeat or completion stuck behind a lock, or a server that stopped answering,
	 * must fail and be tried again rather than hold its thread while leases run out. Whole seconds, as JDBC
	 * counts them; at least one. VACUUM is never timed out.
	 */
	public PostgresJobStore(DataSource dataSource, boolean notify, Duration statementTimeout) {
		JdbcTemplate template = new JdbcTemplate(dataSource);
		if (!statementTimeout.isZero()) {
			template.setQueryTimeout((int) Math.max(1, statementTimeout.toSeconds()));
		}
		JdbcClient jdbc = JdbcClient.create(template);
		PostgresReadyNotifier notifier = notify ? new PostgresReadyNotifier(jdbc, NOTIFY_INTERVAL) : null;
		this.enqueue = new PostgresEnqueue(dataSource, jdbc, notifier);
		this.execution = new PostgresExecution(jdbc, notify);
		this.maintenance = new PostgresMaintenance(jdbc, notify);
		this.control = new PostgresHandlerControl(jdbc, notify);
		this.vacuum = new PostgresVacuum(dataSource);
		this.schedules = new PostgresSchedules(dataSource, jdbc, enqueue);
		this.pauses = new PostgresPauses(jdbc, notify);
		this.promotions = new PostgresPromotions(dataSource, jdbc, notifier);
		this.maintenanceLease = new PostgresMaintenanceLease(jdbc);
		this.nodes = new PostgresNodes(jdbc);
		this.explain = new PostgresExplain(jdbc);
		this.search = new PostgresSearch(jdbc);
		this.bulk = new PostgresBulk(jdbc, notify);

		this.telemetry = new PostgresTelemetry(jdbc);
		this.testSupport = new PostgresTestSupport(jdbc);
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
		return maintenance.find(id);
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
		return maintenance.retryDead(id);
	}

	@Override
	public Optional<Long> holderOfUniqueKey(long id) {
		return maintenance.holderOfUniqueKey(id);
	}

	@Override
	public List<ClaimedJob> claim(String queue, Map<String, Integer> versions, int limit, String owner,
			Duration lease) {
		return execution.claim(queue, versions, limit, owner, lease);
	}

	@Override
	public Optional<Duration> nextDueWithin(String queue, Map<String, Integer> versions, Duration horizon) {
		return execution.nextDueWithin(queue, versions, horizon);
	}

	@Override
	public boolean complete(Lease lease, String resultJson) {
		return execution.complete(lease, resultJson);
	}

	@Override
	public Set<Lease> completeAll(Collection<Completion> completions) {
		return execution.completeAll(completions);
	}

	@Override
	public boolean retryLater(Lease lease, Duration delay, String error) {
		return execution.retryLater(lease, delay, error);
	}

	@Override
	public boolean fail(Lease lease, String error) {
		return execution.fail(lease, error);
	}

	@Override
	public boolean release(Lease lease) {
		return execution.release(lease);
	}

	@Override
	public Set<Lease> heartbeat(String owner, Collection<Lease> leases, Duration lease) {
		return execution.heartbeat(owner, leases, lease);
	}

	@Override
	public void confirm(String owner, Collection<Lease> leases) {
		execution.confirm(owner, leases);
	}

	@Override
	public int reapExpired(int limit) {
		return maintenance.reapExpired(limit);
	}

	@Override
	public int prune(Duration finishedRetention, Duration deadRetention, int limit) {
		return maintenance.prune(finishedRetention, deadRetention, limit);
	}

	@Override
	public boolean vacuumIfBloated(long deadRowThreshold) {
		return vacuum.vacuumIfBloated(deadRowThreshold);
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
		return maintenance.countByQueueAndState();
	}

	@Override
	public Map<String, Map<JobState, Long>> countUnfinishedByQueue() {
		return maintenance.countUnfinishedByQueue();
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

	@Override
	public Optional<TableHealth> tableHealth() {
		return Optional.of(telemetry.tableHealth());
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

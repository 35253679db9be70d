package dev.jobqueue.store.mysql;

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
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
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
 * The queue's SQL for MySQL 8 and MariaDB. Every time is the database's clock, {@code UTC_TIMESTAMP(6)}, stored as
 * {@code DATETIME(6)} in UTC. The statements are grouped by role: {@link MysqlEnqueue}, {@link MysqlClaims} (with
 * {@link MysqlLockingClaim} or {@link MysqlCasClaim}), {@link MysqlLeases} (the fenced writes),
 * {@link MysqlMaintenance} (reaper, pruner), {@link MysqlMaintenanceLease}, {@link MysqlHandlerControl} (snooze,
 * cancel), {@link MysqlSchedules}, {@link MysqlPauses}, {@link MysqlPromotions}, {@link MysqlNodes},
 * {@link MysqlExplain}, {@link MysqlSearch}, {@link MysqlCounts} and {@link MysqlBulk} (the operator's),
 * {@link MysqlTelemetry}, {@link MysqlTestSupport}.
 */
public final class MysqlJobStore implements JobStore {

	public static final String VENDOR = "mysql";

	private final JdbcClient jdbc;

	private final MysqlEnqueue enqueue;

	private final MysqlClaims claims;

	private final MysqlLeases leases;

	private final MysqlMaintenance maintenance;

	private final MysqlHandlerControl control;

	private final MysqlSchedules schedules;

	private final MysqlPauses pauses;

	private final MysqlPromotions promotions;

	private final MysqlMaintenanceLease maintenanceLease;

	private final MysqlNodes nodes;

	private final MysqlExplain explain;

	private final MysqlSearch search;

	private final MysqlCounts counts;

	private final MysqlBulk bulk;

	private final MysqlTelemetry telemetry;

	private final MysqlTestSupport testSupport;

	/** A store whose statements never time out, with the claim the server supports. */
	public MysqlJobStore(DataSource dataSource) {
		this(dataSource, Duration.ZERO);
	}

	/** As {@link #MysqlJobStore(DataSource, Duration, MysqlClaimMethod)}, the claim chosen by the server's version. */
	public MysqlJobStore(DataSource dataSource, Duration statementTimeout) {
		this(dataSource, statementTimeout, serverVersion(dataSource));
	}

	private MysqlJobStore(DataSource dataSource, Duration statementTimeout, String serverVersion) {
		this(dataSource, statementTimeout, MysqlClaimMethod.forServer(serverVersion), serverVersion);
	}

	/**
	 * A store whose statements give up after {@code statementTimeout} (zero: never), as on PostgreSQL: a claim,
	 * heartbeat or completion stuck behind a lock, or a server that stopped answering, must fail and be tried again
	 * rather than hold its thread while leases run out. Whole seconds, as JDBC counts them; at least one. Both
	 * drivers put the JDBC timeout on the server's own: MariaDB Connector/J prefixes the statement with
	 * {@code SET STATEMENT max_statement_time}, MySQL Connector/J kills the query from a timer.
	 */
	public MysqlJobStore(DataSource dataSource, Duration statementTimeout, MysqlClaimMethod claimMethod) {
		this(dataSource, statementTimeout, claimMethod, serverVersion(dataSource));
	}

	/** @param serverVersion what the server answers to {@code SELECT VERSION()} */
	private MysqlJobStore(DataSource dataSource, Duration statementTimeout, MysqlClaimMethod claimMethod,
			String serverVersion) {
		JdbcTemplate template = new JdbcTemplate(dataSource);
		if (!statementTimeout.isZero()) {
			template.setQueryTimeout((int) Math.max(1, statementTimeout.toSeconds()));
		}
		this.jdbc = JdbcClient.create(template);
		NamedParameterJdbcTemplate named = new NamedParameterJdbcTemplate(template);
		MysqlTransactions transactions = new MysqlTransactions(dataSource, jdbc);
		BatchTransactions batches = new BatchTransactions(dataSource);
		MysqlClaim claim = claimMethod == MysqlClaimMethod.SKIP_LOCKED ? new MysqlLockingClaim(jdbc, transactions)
				: new MysqlCasClaim(jdbc);
		this.enqueue = new MysqlEnqueue(jdbc, template, batches, MysqlClaimMethod.isMariadb(serverVersion));
		this.claims = new MysqlClaims(jdbc, claim);
		this.leases = new MysqlLeases(jdbc, named, transactions);
		this.maintenance = new MysqlMaintenance(jdbc, named, transactions);
		this.control = new MysqlHandlerControl(jdbc);
		this.schedules = new MysqlSchedules(jdbc, enqueue, batches);
		this.pauses = new MysqlPauses(jdbc);
		this.promotions = new MysqlPromotions(jdbc, transactions);
		this.maintenanceLease = new MysqlMaintenanceLease(jdbc);
		this.nodes = new MysqlNodes(jdbc);
		this.explain = new MysqlExplain(jdbc);
		this.search = new MysqlSearch(jdbc);
		this.counts = new MysqlCounts(jdbc);
		this.bulk = new MysqlBulk(jdbc, transactions);
		this.telemetry = new MysqlTelemetry(jdbc);
		this.testSupport = new MysqlTestSupport(jdbc);
	}

	private static String serverVersion(DataSource dataSource) {
		return JdbcClient.create(dataSource).sql("SELECT VERSION()").query(String.class).single();
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
		return jdbc.sql("""
				SELECT id, queue, kind, payload, payload_version, state, priority, run_at, attempt, max_attempts,
				       lease_owner, lease_expires_at, unique_key, last_error, result, created_at, started_at,
				       finished_at, errors, concurrency_key
				FROM jobqueue_job WHERE id = :id""")
			.param("id", id)
			.query(MysqlRows::job)
			.optional();
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

	/** The bulk form for one job: MySQL's UPDATE may not read its own table in the NOT EXISTS this needs. */
	@Override
	public boolean retryDead(long id) {
		return !bulk.retryDeadAll(List.of(id)).isEmpty();
	}

	@Override
	public Optional<Long> holderOfUniqueKey(long id) {
		return jdbc.sql("""
				SELECT holder.id FROM jobqueue_job job
				JOIN jobqueue_job holder ON holder.kind = job.kind AND holder.unique_key = job.unique_key
				WHERE job.id = :id AND job.state = 'dead' AND holder.id <> job.id
				  AND holder.state IN ('blocked', 'ready', 'running')""")
			.param("id", id)
			.query(Long.class)
			.optional();
	}

	@Override
	public List<ClaimedJob> claim(String queue, Map<String, Integer> versions, int limit, String owner,
			Duration lease) {
		return claims.claim(queue, versions, limit, owner, lease);
	}

	@Override
	public boolean confirmsInClaim() {
		return true;
	}

	@Override
	public List<ClaimedJob> claimConfirmed(String queue, Map<String, Integer> versions, int limit, String owner,
			Duration lease) {
		return claims.claimConfirmed(queue, versions, limit, owner, lease);
	}

	@Override
	public Optional<Duration> nextDueWithin(String queue, Map<String, Integer> versions, Duration horizon) {
		return claims.nextDueWithin(queue, versions, horizon);
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
		claims.confirm(owner, held);
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
	 * Nothing to do: InnoDB's purge thread removes the old versions of rows as soon as no transaction can read
	 * them, with no command of ours.
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
		return counts.unfinished();
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

	/** InnoDB purges old row versions itself; there is no dead-row count or vacuum to report. */
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

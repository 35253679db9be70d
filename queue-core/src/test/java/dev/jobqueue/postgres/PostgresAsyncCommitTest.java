package dev.jobqueue.postgres;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Completion;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.Lease;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.postgres.PostgresDialect;
import dev.jobqueue.support.OnePostgresSession;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The claim, its confirmation and the batched completion turn {@code synchronous_commit} off for their
 * own transaction, and for nothing else: the pool's one connection, shared with the application, keeps
 * its setting. The heartbeat, which moves the lease on which the local fence relies, keeps a synchronous
 * commit.
 */
class PostgresAsyncCommitTest {

	@RegisterExtension
	static final OnePostgresSession postgres = new OnePostgresSession();

	private final JdbcClient jdbc = JdbcClient.create(postgres.session());

	private final JobStore store = PostgresDialect.jobStore(postgres.session());

	@BeforeEach
	void twoReadyJobs() {
		postgres.database().reset();
		store.enqueues().enqueueAll(List.of(job(), job()));
	}

	@Test
	void aClaimCommitsAsynchronouslyAndLeavesTheConnectionsSettingAlone() {
		assertThat(settingInsideTransactionOf(s -> claimOne(s))).isEqualTo("off");
		assertThat(synchronousCommit()).isEqualTo("on");
	}

	@Test
	void aBatchedCompletionCommitsAsynchronouslyAndLeavesTheConnectionsSettingAlone() {
		List<ClaimedJob> claimed = store.claims().claim("default", Map.of("greet", 1), 2, "owner", Duration.ofMinutes(1),
				false);
		assertThat(synchronousCommit()).isEqualTo("on");
		assertThat(settingInsideTransactionOf(
				s -> s.outcomes().completeAll(claimed.stream().map(job -> new Completion(job.lease(), null)).toList())))
			.isEqualTo("off");
		assertThat(synchronousCommit()).isEqualTo("on");
		assertThat(jdbc.sql("SELECT count(*) FROM jobqueue_job WHERE state = 'succeeded'").query(Long.class).single())
			.isEqualTo(2);
	}

	@Test
	void theConfirmationsCommitAsynchronouslyAndAHeartbeatDoesNot() {
		List<ClaimedJob> claimed = store.claims().claim("default", Map.of("greet", 1), 2, "owner", Duration.ofMinutes(1),
				false);
		List<Lease> leases = claimed.stream().map(ClaimedJob::lease).toList();

		assertThat(settingInsideTransactionOf(s -> s.claims().confirm("owner", leases))).isEqualTo("off");
		assertThat(settingInsideTransactionOf(s -> s.claims().confirmStarts("owner", leases))).isEqualTo("off");
		assertThat(settingInsideTransactionOf(s -> s.claims().heartbeat("owner", leases, Duration.ofMinutes(1))))
			.isEqualTo("on");
		assertThat(synchronousCommit()).isEqualTo("on");
		assertThat(jdbc.sql("SELECT count(*) FROM jobqueue_job WHERE claim_confirmed").query(Long.class).single())
			.isEqualTo(2);
	}

	@Test
	void anEnqueueKeepsASynchronousCommit() {
		assertThat(settingInsideTransactionOf(s -> s.enqueues().enqueue(job()))).isEqualTo("on");
	}

	/** Runs the statement in a transaction of its own and reads the setting before that commits. */
	private String settingInsideTransactionOf(Consumer<JobStore> statement) {
		return new TransactionTemplate(new JdbcTransactionManager(postgres.session())).execute(status -> {
			statement.accept(store);
			return synchronousCommit();
		});
	}

	private void claimOne(JobStore s) {
		assertThat(s.claims().claim("default", Map.of("greet", 1), 1, "owner", Duration.ofMinutes(1),
				false)).hasSize(1);
	}

	private String synchronousCommit() {
		return jdbc.sql("SHOW synchronous_commit").query(String.class).single();
	}

	private static NewJob job() {
		return new NewJob("default", "greet", "{}", 1, 5, null, Duration.ZERO, 3, null);
	}
}

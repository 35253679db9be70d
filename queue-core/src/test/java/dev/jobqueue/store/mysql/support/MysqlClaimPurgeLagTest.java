package dev.jobqueue.store.mysql.support;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Completion;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.support.ExplainedPlans;
import dev.jobqueue.support.MysqlTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Every claimed row leaves a delete-marked entry at the head of the claim index's ready range until InnoDB's purge
 * removes it, and a claim walks past those entries. Here an open snapshot holds the purge back while 2,000 jobs are
 * claimed and completed, and the server itself counts the pages the claim's two reads then visit
 * ({@code ANALYZE FORMAT=JSON}, MariaDB's {@code r_engine_stats}): 173 and 192 on MariaDB 10.11. The claim before
 * (one locking read, the plain read's text with {@code FOR UPDATE SKIP LOCKED}) visited 24,101 in the same setup.
 */
class MysqlClaimPurgeLagTest {

	private static final Map<String, Integer> SERVED = Map.of("greet", 1);

	private static final Pattern PAGES = Pattern.compile("\"pages_accessed\":\\s*(\\d+)");

	private static MysqlTestDatabase database;

	private static Connection snapshot;

	@BeforeAll
	static void claimedRowsThePurgeCannotRemove() throws SQLException {
		database = new MysqlTestDatabase(4);
		String version = JdbcClient.create(database.dataSource()).sql("SELECT VERSION()").query(String.class).single();
		assumeTrue(version.contains("MariaDB"), "the pages a statement visits are MariaDB's count (r_engine_stats)");
		database.reset();
		JobStore store = database.store();
		for (int batch = 0; batch < 3; batch++) {
			store.enqueues().enqueueAll(IntStream.range(0, 1000).mapToObj(i -> job()).toList());
		}
		snapshot = database.dataSource().getConnection();
		try (Statement statement = snapshot.createStatement()) {
			statement.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT");
			statement.executeQuery("SELECT count(*) FROM jobqueue_job").close();
		}
		for (int claim = 0; claim < 20; claim++) {
			List<ClaimedJob> claimed = store.claims().claim("default", SERVED, 100, "w", Duration.ofMinutes(1), false);
			assertThat(claimed).hasSize(100);
			store.outcomes().completeAll(claimed.stream().map(job -> new Completion(job.lease(), null)).toList());
		}
	}

	@AfterAll
	static void close() throws SQLException {
		if (snapshot != null) {
			snapshot.rollback();
			snapshot.close();
		}
		database.close();
	}

	@Test
	void thePlainReadOfTheDueRowsVisitsAFewHundredPages() {
		String plan = analyze("ANALYZE FORMAT=JSON " + MysqlLockingClaim.CANDIDATES);

		assertThat(ExplainedPlans.sum(PAGES, plan)).as("pages visited by the plain read, in %s", plan).isLessThan(1_000);
	}

	@Test
	void theLockingReadOfTheCandidatesVisitsAFewHundredPages() {
		String plan = analyze("ANALYZE FORMAT=JSON " + MysqlLockingClaim.LOCK);

		assertThat(ExplainedPlans.sum(PAGES, plan)).as("pages visited by the locking read, in %s", plan).isLessThan(1_000);
	}

	/** The statement, with the claim's parameters for 32 jobs, in a transaction rolled back. */
	private static String analyze(String statement) {
		JdbcClient jdbc = JdbcClient.create(database.dataSource());
		List<Long> due = jdbc.sql("SELECT id FROM jobqueue_job WHERE state = 'ready' ORDER BY id LIMIT 64")
			.query(Long.class)
			.list();
		TransactionTemplate transaction = new TransactionTemplate(new JdbcTransactionManager(database.dataSource()));
		return transaction.execute(status -> {
			status.setRollbackOnly();
			jdbc.sql("SET TRANSACTION ISOLATION LEVEL READ COMMITTED").update();
			return jdbc.sql(statement)
				.param("queue", "default")
				.param("kinds", List.of("greet"))
				.param("versions", List.of(1))
				.param("candidates", 64)
				.param("ids", due)
				.param("limit", 32)
				.query(String.class)
				.single();
		});
	}

	private static NewJob job() {
		return new NewJob("default", "greet", "{\"name\":\"Ada\"}", 1, 5, null, Duration.ZERO, 5, null, null);
	}
}

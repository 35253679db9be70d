package dev.jobqueue.store.sqlite;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.sqlite.ProgressHandler;
import org.sqlite.SQLiteConnection;

import dev.jobqueue.EnqueueResult;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.sqlite.support.SqliteChangeWatcher;
import dev.jobqueue.support.SqliteTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The statements that look for due jobs do work in proportion to what they find, not to the jobs due later:
 * with 200,000 jobs due in an hour ahead of them in the ready index (ordered by priority before run-at), the
 * claim, the change watcher's due check and the next due time each run a few hundred instructions of SQLite's
 * virtual machine, and the claim a few hundred more per job it claims. Walking past the future jobs cost five
 * or six per entry, over a million in all. The count comes from SQLite's progress handler, called at every
 * instruction of the one connection the pool holds: it does not depend on the machine's speed, as a time would.
 */
class SqliteDueScanTest {

	private static final Map<String, Integer> SERVED = Map.of("greet", 1);

	/** Far below the 200,000 entries walked past, far above the few index probes. */
	private static final long FEW_INSTRUCTIONS = 5_000;

	/** The claim's writes to its rows and their index entries, a few hundred instructions per job. */
	private static final long PER_CLAIMED_JOB = 500;

	private final SqliteTestDatabase database = new SqliteTestDatabase(1);

	private final JobStore store = database.store();

	private final JdbcClient jdbc = JdbcClient.create(database.dataSource());

	/** Written in one statement: the store's enqueue of 200,000 jobs, one insert each, takes seconds. */
	@BeforeEach
	void twoHundredThousandJobsDueInAnHour() {
		jdbc.sql("""
				WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000)
				INSERT INTO jobqueue_job (queue, kind, payload, state, priority, run_at, max_attempts, created_at)
				SELECT 'default', 'greet', '{}', 'ready', 5, now.ms + 3600000, 3, now.ms
				FROM n, (SELECT CAST(round(unixepoch('subsec') * 1000) AS INTEGER) AS ms) AS now""").update();
	}

	@AfterEach
	void close() {
		database.close();
	}

	@Test
	void withNothingDueTheStatementsLookingForDueJobsRunAFewInstructions() {
		assertThat(instructions(() -> store.claims().claim("default", SERVED, 32, "owner", Duration.ofMinutes(1),
				false)))
			.isLessThan(FEW_INSTRUCTIONS);
		assertThat(instructions(this::watcherFindsADueJob)).isLessThan(FEW_INSTRUCTIONS);
		assertThat(instructions(() -> store.claims().nextDueWithin("default", SERVED, Duration.ofSeconds(1))))
			.isLessThan(FEW_INSTRUCTIONS);

		assertThat(store.claims().claim("default", SERVED, 32, "owner", Duration.ofMinutes(1), false)).isEmpty();
		assertThat(watcherFindsADueJob()).isFalse();
		assertThat(store.claims().nextDueWithin("default", SERVED, Duration.ofSeconds(1))).isEmpty();
	}

	@Test
	void dueJobsOfALowerPriorityAreReachedWithoutWalkingPastTheFutureOnes() {
		List<Long> dueAtSix = store.enqueues().enqueueAll(IntStream.range(0, 1_000).mapToObj(i -> job(6, Duration.ZERO)).toList())
			.stream()
			.map(EnqueueResult::id)
			.toList();

		assertThat(instructions(this::watcherFindsADueJob)).isLessThan(FEW_INSTRUCTIONS);
		assertThat(watcherFindsADueJob()).isTrue();
		AtomicLong claimInstructions = new AtomicLong();
		List<ClaimedJob> claimed = counting(claimInstructions,
				() -> store.claims().claim("default", SERVED, 32, "owner", Duration.ofMinutes(1), false));

		// Claim order: the first 32 of priority 6, enqueued together and so due together, by id.
		assertThat(claimed).extracting(ClaimedJob::id).containsExactlyElementsOf(dueAtSix.subList(0, 32));
		assertThat(claimInstructions.get()).isLessThan(FEW_INSTRUCTIONS + 32 * PER_CLAIMED_JOB);
	}

	private boolean watcherFindsADueJob() {
		return !jdbc.sql(SqliteChangeWatcher.DUE).param(1, "default").param(2, "default").query((rs, n) -> 1)
			.list()
			.isEmpty();
	}

	private long instructions(Supplier<?> statement) {
		AtomicLong count = new AtomicLong();
		counting(count, statement);
		return count.get();
	}

	/** Runs the statement with a progress handler counting every instruction on the pool's one connection. */
	private <T> T counting(AtomicLong count, Supplier<T> statement) {
		try (Connection connection = database.dataSource().getConnection()) {
			ProgressHandler.setHandler(connection.unwrap(SQLiteConnection.class), 1, new ProgressHandler() {
				@Override
				protected int progress() {
					count.incrementAndGet();
					return 0;
				}
			});
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
		try {
			return statement.get();
		}
		finally {
			try (Connection connection = database.dataSource().getConnection()) {
				ProgressHandler.clearHandler(connection.unwrap(SQLiteConnection.class));
			}
			catch (SQLException ex) {
				throw new IllegalStateException(ex);
			}
		}
	}

	private static NewJob job(int priority, Duration delay) {
		return new NewJob("default", "greet", "{}", 1, priority, null, delay, 3, null);
	}
}

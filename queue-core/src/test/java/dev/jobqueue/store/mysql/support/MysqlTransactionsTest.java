package dev.jobqueue.store.mysql.support;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.jobqueue.support.MysqlTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store's own transactions run at READ COMMITTED on a pool left at the server's REPEATABLE READ, and the next
 * transaction on the connection is back at the pool's level: a read in the transaction sees a row another
 * connection committed after the transaction's first read, which REPEATABLE READ's snapshot would hide.
 */
class MysqlTransactionsTest {

	private static MysqlTestDatabase database;

	private final JdbcClient jdbc = JdbcClient.create(database.dataSource());

	@BeforeAll
	static void openDatabase() {
		database = new MysqlTestDatabase(1);
	}

	@AfterAll
	static void closeDatabase() {
		database.close();
	}

	@BeforeEach
	void empty() {
		database.reset();
	}

	@Test
	void theStoresTransactionSeesACommitMadeAfterItsFirstRead() {
		List<Long> counts = new MysqlTransactions(database.dataSource(), jdbc).run(() -> countsAroundACommit());

		assertThat(counts).containsExactly(0L, 1L);
	}

	@Test
	void theNextTransactionOnTheConnectionIsAtThePoolsLevelAgain() {
		MysqlTransactions transactions = new MysqlTransactions(database.dataSource(), jdbc);
		transactions.run(() -> countsAroundACommit());
		jdbc.sql("DELETE FROM jobqueue_pause").update();

		List<Long> counts = new TransactionTemplate(new JdbcTransactionManager(database.dataSource()))
			.execute(status -> countsAroundACommit());

		assertThat(counts).containsExactly(0L, 0L);
	}

	/** Counts pauses, commits one on a connection of its own, counts again. */
	private List<Long> countsAroundACommit() {
		List<Long> counts = new ArrayList<>();
		counts.add(pauses());
		try (MysqlTestDatabase other = new MysqlTestDatabase(MysqlTestDatabase.url(), 1, MysqlClaimMethod.SKIP_LOCKED)) {
			JdbcClient.create(other.dataSource())
				.sql("INSERT INTO jobqueue_pause VALUES ('queue', 'probe', TRUE, UTC_TIMESTAMP(6))")
				.update();
		}
		counts.add(pauses());
		return counts;
	}

	private long pauses() {
		return jdbc.sql("SELECT count(*) FROM jobqueue_pause").query(Long.class).single();
	}
}

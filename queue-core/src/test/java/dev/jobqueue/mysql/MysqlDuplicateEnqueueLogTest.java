package dev.jobqueue.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

import ch.qos.logback.classic.Level;
import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.EnqueueResult;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.support.LogCapture;
import dev.jobqueue.support.MysqlTestDatabase;
import dev.jobqueue.support.QueueFixture;

/**
 * A duplicate unique enqueue is normal traffic: it logs nothing, neither from the queue nor from the driver (MariaDB
 * Connector/J logs every error the server returns at WARN).
 */
class MysqlDuplicateEnqueueLogTest {

	private static MysqlTestDatabase database;

	private QueueFixture fixture;

	@BeforeEach
	void setUp() {
		if (database == null) {
			database = new MysqlTestDatabase();
		}
		fixture = new QueueFixture(database);
	}

	@AfterEach
	void tearDown() {
		fixture.close();
	}

	@AfterAll
	static void closeDatabase() {
		if (database != null) {
			database.close();
			database = null;
		}
	}

	@Test
	void aDuplicateUniqueEnqueueLogsNoWarning() {
		EnqueueOptions unique = EnqueueOptions.defaults().uniqueKey("report-7");
		try (LogCapture log = new LogCapture(Logger.ROOT_LOGGER_NAME)) {
			long first = fixture.queue().enqueue("greet", "a", unique);
			long again = fixture.queue().enqueueUnique("greet", "b", unique).id();
			Long inTransaction = fixture.transactions()
				.execute(status -> fixture.queue().enqueueUnique("greet", "c", unique).id());
			List<EnqueueResult> all = fixture.queue()
				.enqueueAllUnique(List.of(new NewJobRequest("greet", "d", unique), new NewJobRequest("greet", "e")));

			assertThat(List.of(again, inTransaction, all.get(0).id())).containsOnly(first);
			assertThat(log.messagesAtLeast(Level.WARN)).isEmpty();
		}
	}
}

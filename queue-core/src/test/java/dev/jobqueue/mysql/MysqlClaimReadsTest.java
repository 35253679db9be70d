package dev.jobqueue.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.support.MysqlTestDatabase;

/**
 * MySQL has no partial index: the claim index holds every row, finished ones too, and delayed ones. With 20,000
 * finished jobs and 20,000 due in an hour at a higher priority, a claim must still read about as many index entries
 * as it takes, not walk past the others: counted by the server itself, the session's {@code Handler_read_%}
 * counters, on a pool of one connection.
 */
class MysqlClaimReadsTest {

	private static final Map<String, Integer> SERVED = Map.of("greet", 1);

	private static MysqlTestDatabase database;

	@BeforeAll
	static void finishedAndFutureJobs() {
		database = new MysqlTestDatabase(1);
		database.reset();
		JobStore store = database.store();
		for (int batch = 0; batch < 20; batch++) {
			store.enqueues().enqueueAll(IntStream.range(0, 1000).mapToObj(i -> job(5, Duration.ZERO)).toList());
		}
		jdbc().sql("UPDATE jobqueue_job SET state = 'succeeded', finished_at = UTC_TIMESTAMP(6)").update();
		for (int batch = 0; batch < 20; batch++) {
			store.enqueues().enqueueAll(IntStream.range(0, 1000).mapToObj(i -> job(0, Duration.ofHours(1))).toList());
		}
	}

	@AfterAll
	static void close() {
		database.close();
	}

	@Test
	void aClaimWithNothingDueReadsAFewEntries() {
		long before = handlerReads();
		List<ClaimedJob> claimed = database.store().claims().claim("default", SERVED, 10, "w", Duration.ofMinutes(1),
				false);
		long reads = handlerReads() - before;

		assertThat(claimed).isEmpty();
		assertThat(reads).as("index entries and rows read").isLessThan(50);
	}

	@Test
	void aClaimOfTenDueJobsBehindFutureOnesReadsAboutTen() {
		database.store().enqueues().enqueueAll(IntStream.range(0, 10).mapToObj(i -> job(5, Duration.ZERO)).toList());
		long before = handlerReads();
		List<ClaimedJob> claimed = database.store().claims().claim("default", SERVED, 10, "w", Duration.ofMinutes(1),
				false);
		long reads = handlerReads() - before;

		assertThat(claimed).hasSize(10);
		assertThat(reads).as("index entries and rows read").isLessThan(100);
	}

	private static long handlerReads() {
		return jdbc().sql("SHOW SESSION STATUS LIKE 'Handler_read%'")
			.query((rs, row) -> rs.getLong(2))
			.list()
			.stream()
			.mapToLong(Long::longValue)
			.sum();
	}

	private static JdbcClient jdbc() {
		return JdbcClient.create(database.dataSource());
	}

	private static NewJob job(int priority, Duration delay) {
		return new NewJob("default", "greet", "{\"name\":\"Ada\",\"count\":1}", 1, priority, null, delay, 5, null, null);
	}
}

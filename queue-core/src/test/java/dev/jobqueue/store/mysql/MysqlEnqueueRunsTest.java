package dev.jobqueue.store.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.EnqueueResult;
import dev.jobqueue.store.BatchTransactions;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.support.MysqlTestDatabase;

/**
 * Both ways a run of jobs goes in, on the machine's MariaDB: its multi-row inserts with RETURNING, cut by rows and by
 * payload size, and MySQL's JDBC batch, which only a MySQL server takes otherwise. Each job's id is returned in the
 * order given, beside a job with a unique key that splits the runs.
 */
class MysqlEnqueueRunsTest {

	private static MysqlTestDatabase database;

	private final JdbcClient jdbc = JdbcClient.create(database.dataSource());

	@BeforeAll
	static void openDatabase() {
		database = new MysqlTestDatabase(2);
	}

	@AfterAll
	static void closeDatabase() {
		database.close();
	}

	@BeforeEach
	void empty() {
		database.reset();
	}

	@ParameterizedTest(name = "returning: {0}")
	@ValueSource(booleans = { true, false })
	void everyJobOfARunGetsItsOwnIdInTheOrderGiven(boolean returning) {
		String large = "x".repeat(MysqlEnqueue.PAYLOAD_CHARS_PER_INSERT / 2);
		List<NewJob> jobs = IntStream.range(0, MysqlEnqueue.ROWS_PER_INSERT * 2 + 10)
			.mapToObj(i -> job(i % 300 == 7 ? "\"" + large + i + "\"" : "\"job " + i + "\"", i == 600 ? "the key" : null))
			.toList();

		List<Long> ids = enqueue(returning).enqueueAll(jobs).stream().map(EnqueueResult::id).toList();

		assertThat(ids).hasSize(jobs.size()).doesNotHaveDuplicates().isSorted();
		Map<Long, String> payloads = jdbc.sql("SELECT id, payload FROM jobqueue_job")
			.query((rs, n) -> Map.entry(rs.getLong(1), rs.getString(2)))
			.list()
			.stream()
			.collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
		for (int i = 0; i < jobs.size(); i++) {
			assertThat(payloads.get(ids.get(i))).as("job %d", i).isEqualTo(jobs.get(i).payload());
		}
	}

	private static MysqlEnqueue enqueue(boolean returning) {
		return new MysqlEnqueue(JdbcClient.create(database.dataSource()), new JdbcTemplate(database.dataSource()),
				new BatchTransactions(database.dataSource()), returning);
	}

	private static NewJob job(String payload, String uniqueKey) {
		return new NewJob("default", "greet", payload, 1, 5, null, Duration.ZERO, 5, uniqueKey, null, null);
	}
}

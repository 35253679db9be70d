package dev.jobqueue.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.jobqueue.HandlerOptions;
import dev.jobqueue.JobContext;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.RetryPolicy;
import dev.jobqueue.contract.Greeting;
import dev.jobqueue.core.JobQueues;
import dev.jobqueue.store.postgres.PostgresDialect;
import dev.jobqueue.support.PgBouncer;
import dev.jobqueue.support.PostgresTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The core through a real PgBouncer in transaction pooling mode, configured as README's "Behind PgBouncer"
 * says: {@code prepareThreshold=0} in the URL and {@code notify(false)}. Three nodes of four threads share
 * four server connections, create the tables in a schema of their own through PgBouncer, and drain jobs
 * enqueued before they start and by producers while they run; some fail before they succeed, half are
 * transactional. Every attempt runs exactly once, and every transactional effect commits once.
 */
class PostgresPgBouncerTest {

	private static final String SCHEMA = "pgbouncer_test";

	private static final int JOBS = 2_000;

	private static final int NODES = 3;

	private static final int PRODUCERS = 4;

	private static PgBouncer bouncer;

	private static JdbcClient direct;

	private static HikariDataSource directPool;

	private final Map<Long, Queue<Integer>> attempts = new ConcurrentHashMap<>();

	@BeforeAll
	static void startPgBouncer() throws SQLException {
		String url = PostgresTestDatabase.url();
		try (Connection connection = DriverManager.getConnection(url);
				Statement statement = connection.createStatement()) {
			statement.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
			statement.execute("CREATE SCHEMA " + SCHEMA);
		}
		String inSchema = url + (url.contains("?") ? "&" : "?") + "currentSchema=" + SCHEMA;
		bouncer = PgBouncer.start(inSchema, 4);
		directPool = pool(inSchema, 2);
		direct = JdbcClient.create(directPool);
		// Over a direct connection, as the README asks: Flyway's session-level lock cannot go through
		// transaction pooling.
		new PostgresDialect().migrate(directPool);
	}

	@AfterAll
	static void stopPgBouncer() {
		if (directPool != null) {
			directPool.close();
		}
		if (bouncer != null) {
			bouncer.close();
		}
	}

	@Test
	void nodesThroughPgBouncerInTransactionPoolingRunEveryAttemptOnceAndEachEffectOnce() throws Exception {
		List<HikariDataSource> pools = new ArrayList<>();
		List<JobQueues> nodes = new ArrayList<>();
		try {
			for (int i = 0; i < NODES; i++) {
				HikariDataSource pool = pool(bouncer.jdbcUrl() + "&prepareThreshold=0", 6);
				pools.add(pool);
				nodes.add(node(pool));
			}
			direct.sql("CREATE TABLE effect (job_id bigint NOT NULL)").update();
			JobQueue queue = nodes.get(0).jobQueue();
			queue.enqueueAll(IntStream.range(0, JOBS / 2).mapToObj(PostgresPgBouncerTest::request).toList());
			nodes.forEach(JobQueues::start);
			produce(queue, JOBS / 2, JOBS);

			await("the drain").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
				.until(() -> count("SELECT count(*) FROM jobqueue_job WHERE state = 'succeeded'") == JOBS);
		}
		finally {
			nodes.forEach(JobQueues::close);
			pools.forEach(HikariDataSource::close);
		}
		List<Map<String, Object>> jobs = direct
			.sql("SELECT id, attempt, payload ->> 'count' AS failures FROM jobqueue_job")
			.query()
			.listOfRows();
		assertThat(jobs).hasSize(JOBS).allSatisfy(job -> {
			long id = ((Number) job.get("id")).longValue();
			int runs = Integer.parseInt((String) job.get("failures")) + 1;
			assertThat(job.get("attempt")).as("attempt of job %d", id).isEqualTo(runs);
			assertThat(attempts.get(id)).as("attempts run of job %d", id)
				.containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(1, runs).boxed().toList());
		});
		long transactional = count("SELECT count(*) FROM jobqueue_job WHERE kind = 'work-tx'");
		assertThat(transactional).isEqualTo(JOBS / 2);
		assertThat(count("SELECT count(*) FROM effect")).isEqualTo(transactional);
		assertThat(count("SELECT count(DISTINCT job_id) FROM effect")).isEqualTo(transactional);
		// What PgBouncer logs when a notification reaches a server connection some client left listening.
		assertThat(bouncer.log()).as("PgBouncer's log").doesNotContain("got packet 'A' from server when not linked");
	}

	/**
	 * Left on behind PgBouncer, the listener says so: while another client holds the server connection it
	 * subscribed on (PgBouncer lends the one last given back), its next probe runs in another session,
	 * one PgBouncer opened beforehand (on a busy server it might not get a new one in time).
	 */
	private JobQueues node(HikariDataSource pool) {
		JdbcClient jdbc = JdbcClient.create(pool);
		return JobQueues.builder(pool)
			.handler("work", Greeting.class, (work, context) -> run(work, context))
			.handler("work-tx", Greeting.class, HandlerOptions.defaults().transactional(true), (work, context) -> {
				jdbc.sql("INSERT INTO effect (job_id) VALUES (:id)").param("id", context.jobId()).update();
				return run(work, context);
			})
			.queue("default", 4)
			.notify(false)
			.migrateSchema(false)
			.settings(settings -> settings.pollInterval(Duration.ofMillis(100))
				.lease(Duration.ofSeconds(10))
				.heartbeatInterval(Duration.ofSeconds(1))
				.retryPolicy(new RetryPolicy(5, Duration.ofMillis(10), Duration.ofMillis(50), 2.0, 0.0)))
			.build();
	}

	/** Records the attempt; fails the first {@code count} attempts of the job, then succeeds. */
	private Object run(Greeting work, JobContext context) {
		attempts.computeIfAbsent(context.jobId(), id -> new ConcurrentLinkedQueue<>()).add(context.attempt());
		if (context.attempt() <= work.count()) {
			throw new IllegalStateException("attempt " + context.attempt() + " fails, as the job asks");
		}
		return null;
	}

	/** Job {@code i}: every other one transactional; one in seven fails once, one in fifty twice. */
	private static NewJobRequest request(int i) {
		int failures = i % 50 == 0 ? 2 : i % 7 == 0 ? 1 : 0;
		return new NewJobRequest(i % 2 == 0 ? "work" : "work-tx", new Greeting("job " + i, failures));
	}

	/** Producers enqueue jobs {@code from} to {@code to} one statement each, concurrently. */
	private static void produce(JobQueue queue, int from, int to) throws Exception {
		ExecutorService producers = Executors.newFixedThreadPool(PRODUCERS);
		try {
			List<Future<?>> done = new ArrayList<>();
			for (int p = 0; p < PRODUCERS; p++) {
				int producer = p;
				done.add(producers.submit(() -> IntStream.range(from, to)
					.filter(i -> i % PRODUCERS == producer)
					.mapToObj(PostgresPgBouncerTest::request)
					.forEach(job -> queue.enqueue(job.kind(), job.payload()))));
			}
			for (Future<?> future : done) {
				future.get();
			}
		}
		finally {
			producers.shutdown();
		}
	}

	private static long count(String sql) {
		return direct.sql(sql).query(Long.class).single();
	}

	private static HikariDataSource pool(String url, int size) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url);
		config.setMaximumPoolSize(size);
		return new HikariDataSource(config);
	}
}

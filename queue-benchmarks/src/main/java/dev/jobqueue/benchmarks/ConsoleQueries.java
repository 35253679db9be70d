package dev.jobqueue.benchmarks;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import dev.jobqueue.JobListener;
import dev.jobqueue.JobPage;
import dev.jobqueue.JobQuery;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.dialects.JobStores;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JdbcJobQueue;
import dev.jobqueue.store.JobStore;
import tools.jackson.databind.json.JsonMapper;

/**
 * jobqueue only, PostgreSQL: what the operator's reads cost on a table that keeps a day of finished jobs — the
 * counts, the searches a console's pages make, a deep page, explain, the node list, and the
 * jobs finished per minute and oldest ready job the overview reads from the store — each as the console calls it, on {@code finished} succeeded jobs ({@link Prefill}), {@link #DEAD} dead and
 * {@link #CANCELLED} cancelled ones with errors, and {@link #READY} ready ones in a second queue, vacuumed and
 * analyzed. Each read runs {@link #WARM_UP} times unmeasured, then {@link #TIMES} times; the figure is its median
 * and its slowest, in milliseconds, as the caller sees them (statement, round trip and the mapping of the rows).
 */
final class ConsoleQueries {

	static final int DEAD = 10_000;

	static final int CANCELLED = 5_000;

	static final int READY = 5_000;

	/** Succeeded jobs of the last five minutes, 100 a second: what the overview's jobs finished per minute read. */
	static final int RECENT = 30_000;

	static final int WARM_UP = 5;

	static final int TIMES = 20;

	private final Report report;

	private final int finished;

	ConsoleQueries(Report report, int finished) {
		this.report = report;
		this.finished = finished;
	}

	void run(Database database) {
		new JobqueueContender(database).reset();
		Prefill.fill(database, finished, 1, RuntimeSettings.DEFAULT_QUEUE);
		fillOtherStates(database);
		JobStore store = JobStores.forDataSource(database.dataSource());
		JobQueue queue = new JdbcJobQueue(store, JsonMapper.builder().build(),
				new HandlerRegistry(), RuntimeSettings.defaults(), JobListener.NONE, name -> {
				});
		long deadId = firstId(database, "dead");
		long readyId = firstId(database, "ready");
		String deepCursor = cursorAfter(queue, JobQuery.all(), 10);
		Map<String, Supplier<Object>> reads = new LinkedHashMap<>();
		reads.put("counts by queue and state", queue::countByQueueAndState);
		reads.put("search, every job, first page", () -> queue.search(JobQuery.all()));
		reads.put("search, every job, 11th page", () -> queue.search(JobQuery.all(), deepCursor));
		reads.put("search, dead jobs", () -> queue.search(JobQuery.all().states(JobState.dead)));
		reads.put("search, succeeded jobs", () -> queue.search(JobQuery.all().states(JobState.succeeded)));
		reads.put("search, one queue's ready jobs", () -> queue.search(JobQuery.all().queue("reports").states(JobState.ready)));
		reads.put("search, dead by kind and error text",
				() -> queue.search(JobQuery.all().kind("bench").states(JobState.dead).errorContains("timeout 42")));
		reads.put("find one job", () -> queue.find(deadId));
		reads.put("explain a dead job", () -> queue.explain(deadId));
		reads.put("explain a ready job", () -> queue.explain(readyId));
		reads.put("nodes", queue::nodes);
		reads.put("finished per minute, last 5 minutes", () -> store.telemetry().finishedPerMinute(5));
		reads.put("oldest ready job of a queue", () -> store.telemetry().oldestReadyAge("reports"));
		String notes = String.format("%d succeeded (%d more in the last 5 minutes), %d dead, %d cancelled, %d ready; "
				+ "median and slowest of %d after %d", finished, RECENT, DEAD, CANCELLED, READY, TIMES, WARM_UP);
		reads.forEach((name, read) -> time(name, read, notes));
	}

	private void time(String name, Supplier<Object> read, String notes) {
		for (int i = 0; i < WARM_UP; i++) {
			read.get();
		}
		double[] millis = new double[TIMES];
		for (int i = 0; i < TIMES; i++) {
			long start = System.nanoTime();
			read.get();
			millis[i] = (System.nanoTime() - start) / 1e6;
		}
		Arrays.sort(millis);
		report.figure("console", "jobqueue", name + " ms", Summary.median(millis), "ms",
				String.format("%s; slowest %.2f ms", notes, millis[TIMES - 1]));
	}

	/**
	 * Dead and cancelled jobs among the finished ones, with the errors a search looks into; a backlog elsewhere; and
	 * jobs that succeeded in the last minutes.
	 */
	private static void fillOtherStates(Database database) {
		database.jdbc().sql("""
				INSERT INTO jobqueue_job (queue, kind, payload, state, run_at, attempt, max_attempts, created_at,
				                          started_at, finished_at, last_error)
				SELECT CASE WHEN i % 2 = 0 THEN 'default' ELSE 'reports' END, 'bench', '-1',
				       CASE WHEN i <= :dead THEN 'dead' ELSE 'cancelled' END, t, 3, 3, t, t, t,
				       'java.net.SocketTimeoutException: timeout ' || (i % 100)
				FROM (SELECT i, now() - interval '20 hours' + i * interval '3 seconds' AS t
				      FROM generate_series(1, :dead + :cancelled) AS i) s""")
			.param("dead", DEAD)
			.param("cancelled", CANCELLED)
			.update();
		database.jdbc().sql("""
				INSERT INTO jobqueue_job (queue, kind, payload, state, run_at, max_attempts)
				SELECT 'reports', 'bench', '-1', 'ready', now(), 3 FROM generate_series(1, :ready)""")
			.param("ready", READY)
			.update();
		database.jdbc().sql("""
				INSERT INTO jobqueue_job (queue, kind, payload, state, run_at, max_attempts, created_at, started_at,
				                          finished_at)
				SELECT 'default', 'bench', '-1', 'succeeded', t, 3, t, t, t
				FROM (SELECT now() - i * interval '10 milliseconds' AS t FROM generate_series(1, :recent) AS i) s""")
			.param("recent", RECENT)
			.update();
		database.jdbc().sql("VACUUM ANALYZE jobqueue_job").update();
	}

	private static long firstId(Database database, String state) {
		return database.jdbc().sql("SELECT min(id) FROM jobqueue_job WHERE state = :state")
			.param("state", state)
			.query(Long.class)
			.single();
	}

	/** The cursor of the page after the first {@code pages} pages. */
	private static String cursorAfter(JobQueue queue, JobQuery query, int pages) {
		JobPage page = queue.search(query);
		for (int i = 1; i < pages && page.hasNext(); i++) {
			page = queue.search(query, page.nextCursor());
		}
		return page.nextCursor();
	}
}

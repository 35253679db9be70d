package dev.jobqueue.benchmarks;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.IntStream;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.jobqueue.JobHandlerFunction;
import dev.jobqueue.JobListener;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.dialects.JobStores;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JdbcJobQueue;
import dev.jobqueue.runtime.JobHandlerDefinition;
import dev.jobqueue.runtime.JobHandlerDefinition.KeyLimits;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.store.JobStore;
import tools.jackson.databind.json.JsonMapper;

/**
 * jobqueue only: how close a kind's rate limit comes to its limit while the backlog allows it. A backlog of jobs of
 * a kind with {@code rateLimit} N per second (each 1 ms of work, {@link #THREADS} threads, the default 1 s poll
 * interval), and the starts counted over {@link #MEASURED} after {@link #WARM_UP}: the sustained rate, and as a
 * percentage of the limit. No window of a second may hold more than N starts (claims, by the database's clock): the
 * most any did is reported too.
 */
final class RateLimits {

	static final int THREADS = 8;

	static final int[] RATES = { 5, 50 };

	static final Duration WARM_UP = Duration.ofSeconds(3);

	static final Duration MEASURED = Duration.ofSeconds(10);

	private static final String KIND = "rated-work";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final Report report;

	RateLimits(Report report) {
		this.report = report;
	}

	void run(Database database) throws InterruptedException {
		JobStore store = JobStores.forDataSource(database.dataSource());
		JobStores.migrate(database.dataSource(), store.vendor());
		for (int rate : RATES) {
			measure(database, store, rate);
		}
		database.empty("jobqueue_job");
	}

	private void measure(Database database, JobStore store, int rate) throws InterruptedException {
		database.empty("jobqueue_job");
		ConcurrentLinkedQueue<Long> starts = new ConcurrentLinkedQueue<>();
		HandlerRegistry handlers = new HandlerRegistry();
		handlers.register(handler(rate, starts));
		RuntimeSettings settings = RuntimeSettings.builder().queues(Map.of(RuntimeSettings.DEFAULT_QUEUE, THREADS)).build();
		JobRuntime runtime = new JobRuntime(store, handlers, JSON, settings, JobListener.NONE,
				new TransactionTemplate(new JdbcTransactionManager(database.dataSource())));
		JdbcJobQueue queue = new JdbcJobQueue(store, JSON, handlers, settings, JobListener.NONE, runtime::wake);
		long backlog = 2L * rate * (WARM_UP.toSeconds() + MEASURED.toSeconds());
		runtime.start();
		try {
			queue.enqueueAll(IntStream.range(0, (int) backlog).mapToObj(n -> new NewJobRequest(KIND, (long) n)).toList());
			long from = System.nanoTime() + WARM_UP.toNanos();
			long to = from + MEASURED.toNanos();
			Thread.sleep(WARM_UP.plus(MEASURED).plusMillis(200).toMillis());
			long[] measured = starts.stream().mapToLong(Long::longValue).filter(t -> t >= from && t < to).sorted()
				.toArray();
			double perSecond = measured.length / (MEASURED.toNanos() / 1e9);
			String notes = String.format("rateLimit %d/1s on the kind's key; a backlog of %d, %d threads, 1 ms of work, "
					+ "poll interval %s; starts counted over %d s after %d s", rate, backlog, THREADS,
					settings.pollInterval(), MEASURED.toSeconds(), WARM_UP.toSeconds());
			report.figure("rate-limits", "jobqueue", rate + "/1s starts/s", perSecond, "1/s", notes);
			report.figure("rate-limits", "jobqueue", rate + "/1s % of limit", 100 * perSecond / rate, "%", notes);
			report.figure("rate-limits", "jobqueue", rate + "/1s most starts in a second", mostInASecond(claims(database)),
					"starts", notes + "; the most claims any second held, by the database's clock, over the whole run");
		}
		finally {
			queue.close();
			runtime.stop();
		}
	}

	/** The jobs' claim times, which the rate counts, in nanoseconds of the database's clock, in order. */
	private static long[] claims(Database database) {
		return JdbcClient.create(database.dataSource())
			.sql("SELECT started_at FROM jobqueue_job WHERE started_at IS NOT NULL")
			.query((rs, row) -> rs.getTimestamp(1).toInstant())
			.list()
			.stream()
			.mapToLong(at -> at.getEpochSecond() * 1_000_000_000L + at.getNano())
			.sorted()
			.toArray();
	}

	/** The most of {@code sorted} any window of one second held. */
	private static int mostInASecond(long[] sorted) {
		int most = 0;
		int first = 0;
		for (int last = 0; last < sorted.length; last++) {
			while (sorted[last] - sorted[first] >= 1_000_000_000L) {
				first++;
			}
			most = Math.max(most, last - first + 1);
		}
		return most;
	}

	@SuppressWarnings("unchecked")
	private static JobHandlerDefinition handler(int rate, ConcurrentLinkedQueue<Long> starts) {
		JobHandlerFunction<Long> work = (payload, context) -> {
			starts.add(System.nanoTime());
			Thread.sleep(1);
			return null;
		};
		return new JobHandlerDefinition(KIND, RuntimeSettings.DEFAULT_QUEUE, Long.class, null, false,
				(JobHandlerFunction<Object>) (JobHandlerFunction<?>) work, "the rate-limits workload's handler", null, 1,
				false, new KeyLimits(1, false, 0, rate, Duration.ofSeconds(1)));
	}
}

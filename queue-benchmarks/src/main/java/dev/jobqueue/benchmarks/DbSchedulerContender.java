package dev.jobqueue.benchmarks;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerBuilder;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.jdbc.AutodetectJdbcCustomization;
import com.github.kagkarlsson.scheduler.jdbc.JdbcCustomization;
import com.github.kagkarlsson.scheduler.jdbc.MySQL8JdbcCustomization;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;

/**
 * db-scheduler with its lock-and-fetch polling where it supports it (PostgreSQL: one {@code UPDATE … SKIP
 * LOCKED … RETURNING} per batch; MySQL 8: a {@code SELECT … FOR UPDATE SKIP LOCKED}, then an {@code UPDATE})
 * and its default fetch-and-lock-on-execute where it does not (SQLite, and MariaDB, where db-scheduler 16
 * turns lock-and-fetch off), 32 threads and a 100 ms polling interval. Immediate execution is on, so an
 * enqueue in the same JVM wakes the scheduler (its in-process hint). Named {@value #SKIP_LOCKED}, it runs with
 * db-scheduler's MySQL 8 customization whatever the server: on MariaDB 10.6+, which has SKIP LOCKED too, that is
 * lock-and-fetch, db-scheduler's best there. Named {@value #PREFETCH}, lock-and-fetch keeps a line of fetched
 * executions beside its threads (PostgreSQL and MySQL/MariaDB, the latter with the MySQL 8 customization).
 */
final class DbSchedulerContender implements Contender {

	/** The name of the variant that claims with SKIP LOCKED on MariaDB, which db-scheduler does not itself choose. */
	static final String SKIP_LOCKED = "db-scheduler-skip-locked";

	/**
	 * The name of the variant with a line of fetched executions: lock-and-fetch's fractions (1.0, 4.0), which
	 * db-scheduler's README suggests for high throughput, fetch as soon as no more executions than threads are
	 * queued or running, up to four times the threads, so 96 wait beside the 32 running, as in jobqueue's
	 * {@value JobqueueContender#PREFETCH_VARIANT}. The plain variants' (0.5, 1.0) hold no more executions than
	 * threads.
	 */
	static final String PREFETCH = "db-scheduler-prefetch";

	private static final int THREADS = 32;

	private final Database database;

	private final JdbcCustomization jdbcCustomization;

	private final OneTimeTask<Long> task;

	private final SchedulerClient client;

	private volatile LongConsumer onExecute = data -> {
	};

	private Scheduler scheduler;

	private final boolean skipLocked;

	private final boolean prefetch;

	DbSchedulerContender(Database database) {
		this(database, false, false);
	}

	/**
	 * @param skipLocked MySQL 8's customization whatever the server (MySQL/MariaDB only)
	 * @param prefetch the line of fetched executions ({@link #PREFETCH}); on MySQL/MariaDB with skipLocked
	 */
	DbSchedulerContender(Database database, boolean skipLocked, boolean prefetch) {
		this.database = database;
		this.skipLocked = skipLocked;
		this.prefetch = prefetch;
		createTable(database);
		// Writing MySQL's zone-less timestamps in UTC, as db-scheduler advises there.
		this.jdbcCustomization = skipLocked ? new MySQL8JdbcCustomization(true)
				: new AutodetectJdbcCustomization(database.dataSource(), database.mysql());
		this.task = Tasks.oneTime("bench", Long.class).execute((instance, context) -> onExecute.accept(instance.getData()));
		this.client = SchedulerClient.Builder.create(database.dataSource(), task)
			.jdbcCustomization(jdbcCustomization)
			.build();
	}

	/** db-scheduler leaves the table to the application; this is the shape it reads and writes. */
	private static void createTable(Database database) {
		String script = "db-scheduler/" + Database.vendorOf(database.url()) + ".sql";
		new ResourceDatabasePopulator(new ClassPathResource(script)).execute(database.dataSource());
	}


	@Override
	public String name() {
		return prefetch ? PREFETCH : skipLocked ? SKIP_LOCKED : "db-scheduler";
	}

	@Override
	public void reset() {
		database.empty("scheduled_tasks");
	}

	@Override
	public void enqueue(long data) {
		active().schedule(task.instance(Long.toString(data) + "-" + System.nanoTime(), data), Instant.now());
	}

	@Override
	public void enqueueBulk(long[] data) {
		List<TaskInstance<?>> instances = new ArrayList<>(data.length);
		for (long d : data) {
			instances.add(task.instance(Long.toString(d) + "-" + System.nanoTime(), d));
		}
		active().scheduleBatch(instances, Instant.now());
	}

	/** The running scheduler when there is one: only its own enqueues trigger its immediate execution. */
	private SchedulerClient active() {
		Scheduler running = scheduler;
		return running != null ? running : client;
	}

	@Override
	public void startWorkers(LongConsumer onExecute) {
		this.onExecute = onExecute;
		SchedulerBuilder builder = Scheduler.create(database.dataSource(), task)
			.threads(THREADS)
			.pollingInterval(Duration.ofMillis(100))
			.jdbcCustomization(jdbcCustomization)
			.enableImmediateExecution();
		if (jdbcCustomization.supportsSingleStatementLockAndFetch()
				|| jdbcCustomization.supportsGenericLockAndFetch()) {
			builder.pollUsingLockAndFetch(prefetch ? 1.0 : 0.5, prefetch ? 4.0 : 1.0);
		}
		scheduler = builder.build();
		scheduler.start();
	}

	@Override
	public void stopWorkers() {
		if (scheduler != null) {
			scheduler.stop();
			scheduler = null;
		}
	}

	@Override
	public void close() {
		stopWorkers();
	}
}

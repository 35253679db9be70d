package dev.jobqueue.benchmarks;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;

/**
 * db-scheduler with its lock-and-fetch polling (one {@code UPDATE … SKIP LOCKED … RETURNING} per
 * batch), 32 threads and a 100 ms polling interval. Immediate execution is on, so an enqueue in the
 * same JVM wakes the scheduler (its in-process hint).
 */
final class DbSchedulerContender implements Contender {

	private static final int THREADS = 32;

	private final Database database;

	private final OneTimeTask<Long> task;

	private final SchedulerClient client;

	private volatile LongConsumer onExecute = data -> {
	};

	private Scheduler scheduler;

	DbSchedulerContender(Database database) {
		this.database = database;
		createTable(database);
		this.task = Tasks.oneTime("bench", Long.class).execute((instance, context) -> onExecute.accept(instance.getData()));
		this.client = SchedulerClient.Builder.create(database.dataSource(), task).build();
	}

	/** db-scheduler leaves the table to the application; this is the PostgreSQL shape it reads and writes. */
	private static void createTable(Database database) {
		database.jdbc().sql("""
				CREATE TABLE IF NOT EXISTS scheduled_tasks (
				    task_name text NOT NULL,
				    task_instance text NOT NULL,
				    task_data bytea,
				    execution_time timestamptz NOT NULL,
				    picked boolean NOT NULL,
				    picked_by text,
				    last_success timestamptz,
				    last_failure timestamptz,
				    consecutive_failures int,
				    last_heartbeat timestamptz,
				    version bigint NOT NULL,
				    priority smallint,
				    PRIMARY KEY (task_name, task_instance)
				)""").update();
		database.jdbc().sql("CREATE INDEX IF NOT EXISTS execution_time_idx ON scheduled_tasks (execution_time)").update();
		database.jdbc().sql("CREATE INDEX IF NOT EXISTS last_heartbeat_idx ON scheduled_tasks (last_heartbeat)").update();
		database.jdbc()
			.sql("CREATE INDEX IF NOT EXISTS priority_execution_time_idx ON scheduled_tasks (priority DESC, execution_time ASC)")
			.update();
	}

	@Override
	public String name() {
		return "db-scheduler";
	}

	@Override
	public void reset() {
		database.jdbc().sql("TRUNCATE scheduled_tasks").update();
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
		scheduler = Scheduler.create(database.dataSource(), task)
			.threads(THREADS)
			.pollingInterval(Duration.ofMillis(100))
			.pollUsingLockAndFetch(0.5, 1.0)
			.enableImmediateExecution()
			.build();
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

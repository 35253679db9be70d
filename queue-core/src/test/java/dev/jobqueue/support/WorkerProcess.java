package dev.jobqueue.support;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.transaction.support.TransactionOperations;
import org.springframework.transaction.support.TransactionTemplate;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.jobqueue.JobHandlerFunction;
import dev.jobqueue.JobListener;
import dev.jobqueue.RetryPolicy;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.contract.Greeting;
import dev.jobqueue.dialects.JobStores;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JobHandlerDefinition.KeyLimits;
import dev.jobqueue.runtime.JobHandlerDefinition;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.sqlite.support.SqliteChangeWatcher;
import dev.jobqueue.store.sqlite.support.SqliteDataSources;

/**
 * A worker JVM for the multi-process tests: runs the {@code work} kind, which records when each
 * execution starts and ends in {@code test_execution}, sleeping {@code count} milliseconds between; and
 * the transactional {@code long-work} kind, which works {@code count} milliseconds, then adds 1 to the
 * balance it reads from {@code test_account} and records its execution, all in the job's completion
 * transaction; and the {@code step} kind, one job at a time per concurrency key (limit 1), which records
 * each execution in {@code test_step} and throws on one first attempt in ten, to be retried after a few
 * milliseconds. Arguments: JDBC URL, worker name, lease in milliseconds.
 */
public final class WorkerProcess {

	private WorkerProcess() {
	}

	public static void main(String[] args) throws InterruptedException {
		String url = args[0];
		String worker = args[1];
		Duration lease = Duration.ofMillis(Long.parseLong(args[2]));
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url);
		config.setMaximumPoolSize(12);
		HikariDataSource dataSource = new HikariDataSource(config);
		JdbcClient jdbc = JdbcClient.create(dataSource);
		HandlerRegistry handlers = new HandlerRegistry();
		handlers.register(new JobHandlerDefinition("work", RuntimeSettings.DEFAULT_QUEUE, Greeting.class, null, false,
				(payload, context) -> {
					// A generated key, not RETURNING: MySQL 8 has none, and MySQL Connector/J refuses it on MariaDB.
					KeyHolder execution = new GeneratedKeyHolder();
					jdbc.sql("INSERT INTO test_execution (job_id, worker, started_at) VALUES (:job, :worker, :now)")
						.param("job", context.jobId())
						.param("worker", worker)
						.param("now", System.currentTimeMillis())
						.update(execution, "id");
					Thread.sleep(((Greeting) payload).count());
					jdbc.sql("UPDATE test_execution SET finished_at = :now WHERE id = :id")
						.param("now", System.currentTimeMillis())
						.param("id", execution.getKey().longValue())
						.update();
					return null;
				}, "the work handler of " + worker));
		handlers.register(new JobHandlerDefinition("long-work", RuntimeSettings.DEFAULT_QUEUE, Greeting.class, null,
				true,
				(payload, context) -> {
					Thread.sleep(((Greeting) payload).count());
					long balance = jdbc.sql("SELECT balance FROM test_account").query(Long.class).single();
					jdbc.sql("UPDATE test_account SET balance = :balance").param("balance", balance + 1).update();
					jdbc.sql("""
							INSERT INTO test_execution (job_id, worker, started_at, finished_at)
							VALUES (:job, :worker, :now, :now)""")
						.param("job", context.jobId())
						.param("worker", worker)
						.param("now", System.currentTimeMillis())
						.update();
					return null;
				}, "the long transactional handler of " + worker));
		handlers.register(new JobHandlerDefinition("step", RuntimeSettings.DEFAULT_QUEUE, Greeting.class,
				new RetryPolicy(5, Duration.ofMillis(5), Duration.ofMillis(20), 2.0, 0.0), false, step(jdbc, worker),
				"the ordered step handler of " + worker, null, 1, false, KeyLimits.DEFAULTS));
		RuntimeSettings settings = RuntimeSettings.builder()
			.queues(Map.of(RuntimeSettings.DEFAULT_QUEUE, 8))
			.pollInterval(Duration.ofMillis(100))
			.lease(lease).heartbeatInterval(lease.dividedBy(4))
			.reaperInterval(Duration.ofMillis(250)).build();
		JobStore store = JobStores.forDataSource(dataSource);
		// As the starter makes them: on SQLite, deferred and run again when SQLite refuses the first write.
		TransactionOperations transactions = new TransactionTemplate(new JdbcTransactionManager(dataSource));
		if ("sqlite".equals(store.vendor())) {
			transactions = SqliteDataSources.forHandlers(transactions);
		}
		JobRuntime runtime = new JobRuntime(store, handlers, QueueFixture.JSON, settings, JobListener.NONE,
				transactions);
		if ("sqlite".equals(store.vendor())) {
			runtime.addWakeupSource(new SqliteChangeWatcher(dataSource, settings.queues().keySet(),
					SqliteChangeWatcher.DEFAULT_INTERVAL));
		}
		runtime.start();
		System.out.println("worker " + worker + " started");
		Thread.currentThread().join();
	}

	/** Records the execution's start and end, and whether it threw, which flaky work does once in ten. */
	private static JobHandlerFunction<Object> step(JdbcClient jdbc, String worker) {
		return (payload, context) -> {
			long started = System.currentTimeMillis();
			Thread.sleep(((Greeting) payload).count());
			boolean fails = context.attempt() == 1 && ThreadLocalRandom.current().nextInt(10) == 0;
			jdbc.sql("""
					INSERT INTO test_step (job_id, attempt, worker, started_at, finished_at, failed)
					VALUES (:job, :attempt, :worker, :started, :finished, :failed)""")
				.param("job", context.jobId())
				.param("attempt", context.attempt())
				.param("worker", worker)
				.param("started", started)
				.param("finished", System.currentTimeMillis())
				.param("failed", fails)
				.update();
			if (fails) {
				throw new IllegalStateException("flaky step of job " + context.jobId());
			}
			return null;
		};
	}
}

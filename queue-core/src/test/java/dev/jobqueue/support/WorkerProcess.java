package dev.jobqueue.support;

import java.time.Duration;
import java.util.Map;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import dev.jobqueue.contract.Greeting;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JobHandlerDefinition;
import dev.jobqueue.runtime.JobListener;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.runtime.RuntimeSettings;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.JobStores;
import dev.jobqueue.store.SqliteChangeWatcher;

/**
 * A worker JVM for the multi-process tests: runs the {@code work} kind, which records when each
 * execution starts and ends in {@code test_execution}, sleeping {@code count} milliseconds between.
 * Arguments: JDBC URL, worker name, lease in milliseconds.
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
					long execution = jdbc.sql("""
							INSERT INTO test_execution (job_id, worker, started_at) VALUES (:job, :worker, :now)
							RETURNING id""")
						.param("job", context.jobId())
						.param("worker", worker)
						.param("now", System.currentTimeMillis())
						.query(Long.class)
						.single();
					Thread.sleep(((Greeting) payload).count());
					jdbc.sql("UPDATE test_execution SET finished_at = :now WHERE id = :id")
						.param("now", System.currentTimeMillis())
						.param("id", execution)
						.update();
					return null;
				}, "the work handler of " + worker));
		RuntimeSettings settings = RuntimeSettings.defaults()
			.withQueues(Map.of(RuntimeSettings.DEFAULT_QUEUE, 8))
			.withPollInterval(Duration.ofMillis(100))
			.withLease(lease, lease.dividedBy(4))
			.withReaperInterval(Duration.ofMillis(250));
		JobStore store = JobStores.forDataSource(dataSource);
		JobRuntime runtime = new JobRuntime(store, handlers, QueueFixture.JSON, settings, JobListener.NONE,
				new TransactionTemplate(new JdbcTransactionManager(dataSource)));
		if ("sqlite".equals(store.vendor())) {
			runtime.addWakeupSource(new SqliteChangeWatcher(dataSource, settings.queues().keySet(),
					SqliteChangeWatcher.DEFAULT_INTERVAL));
		}
		runtime.start();
		System.out.println("worker " + worker + " started");
		Thread.currentThread().join();
	}
}

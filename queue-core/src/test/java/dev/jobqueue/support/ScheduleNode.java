package dev.jobqueue.support;

import java.time.Duration;

import javax.sql.DataSource;

import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.jobqueue.JobListener;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.Schedule;
import dev.jobqueue.dialects.JobStores;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JobHandlerDefinition;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.runtime.ScheduleDefinition;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.sqlite.support.SqliteChangeWatcher;

/**
 * A node of the schedule cluster tests: a runtime that declares the schedule {@code tick}, every second,
 * and runs its jobs (which do nothing). In a JVM of its own through {@link #main}, whose arguments are the
 * JDBC URL and the node's name.
 */
public final class ScheduleNode {

	public static final String SCHEDULE = "tick";

	private static final RuntimeSettings SETTINGS = RuntimeSettings.builder()
		.pollInterval(Duration.ofMillis(200))
		.lease(Duration.ofSeconds(5))
		.heartbeatInterval(Duration.ofSeconds(1))
		.build();

	private ScheduleNode() {
	}

	/** A runtime declaring the {@code tick} schedule, not started. */
	public static JobRuntime runtime(DataSource dataSource) {
		HandlerRegistry handlers = new HandlerRegistry();
		handlers.register(new JobHandlerDefinition("tick", RuntimeSettings.DEFAULT_QUEUE, Void.class, null, false,
				(payload, context) -> null, "the tick handler"));
		handlers.registerSchedule(new ScheduleDefinition(SCHEDULE, Schedule.every(Duration.ofSeconds(1)).kind("tick"),
				"the tick schedule"));
		JobStore store = JobStores.forDataSource(dataSource);
		JobRuntime runtime = new JobRuntime(store, handlers, QueueFixture.JSON, SETTINGS, JobListener.NONE,
				new TransactionTemplate(new JdbcTransactionManager(dataSource)));
		if ("sqlite".equals(store.vendor())) {
			runtime.addWakeupSource(new SqliteChangeWatcher(dataSource, SETTINGS.queues().keySet(),
					SqliteChangeWatcher.DEFAULT_INTERVAL));
		}
		return runtime;
	}

	public static void main(String[] args) throws InterruptedException {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(args[0]);
		config.setMaximumPoolSize(6);
		JobRuntime runtime = runtime(new HikariDataSource(config));
		runtime.start();
		System.out.println("schedule node " + args[1] + " started");
		Thread.currentThread().join();
	}
}

package dev.jobqueue.support;

import java.util.concurrent.locks.LockSupport;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.jobqueue.JobListener;
import dev.jobqueue.JobQueue;
import dev.jobqueue.RetryPolicy;
import dev.jobqueue.contract.Greeting;
import dev.jobqueue.core.JobStores;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JdbcJobQueue;

/**
 * An enqueue-only JVM for the multi-process tests: enqueues {@code count} jobs of the {@code work} kind
 * (see {@link WorkerProcess}), one statement each, at {@code perSecond}, then halts at once with
 * {@link Runtime#halt}: no shutdown hook, no pool closed, as if the process had crashed right after its
 * last commit. Prints the id of each job. Arguments: JDBC URL, jobs per second, count, handler millis.
 */
public final class EnqueuerProcess {

	private EnqueuerProcess() {
	}

	public static void main(String[] args) {
		String url = args[0];
		int perSecond = Integer.parseInt(args[1]);
		int count = Integer.parseInt(args[2]);
		int handlerMillis = Integer.parseInt(args[3]);
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url);
		config.setMaximumPoolSize(2);
		JobQueue queue = new JdbcJobQueue(JobStores.forDataSource(new HikariDataSource(config)), QueueFixture.JSON,
				new HandlerRegistry(), RetryPolicy.DEFAULT, JdbcJobQueue.DEFAULT_MAX_PAYLOAD_LENGTH, JobListener.NONE,
				name -> {
				});
		long period = 1_000_000_000L / perSecond;
		long next = System.nanoTime();
		for (int i = 0; i < count; i++) {
			LockSupport.parkNanos(next - System.nanoTime());
			next += period;
			System.out.println("enqueued " + queue.enqueue("work", new Greeting("enqueued", handlerMillis)));
		}
		System.out.flush();
		Runtime.getRuntime().halt(0);
	}
}

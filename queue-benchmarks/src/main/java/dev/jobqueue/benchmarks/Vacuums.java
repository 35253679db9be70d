package dev.jobqueue.benchmarks;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@code VACUUM} of jobqueue's PostgreSQL table every so often, on a thread of its own, until closed: what
 * an operator can add when autovacuum's defaults wait too long for a table whose rows churn as fast as
 * a queue's.
 */
final class Vacuums implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(Vacuums.class);

	private static final List<String> AUTOVACUUM_SETTINGS = List.of("autovacuum", "autovacuum_naptime",
			"autovacuum_vacuum_scale_factor", "autovacuum_vacuum_threshold", "autovacuum_vacuum_insert_scale_factor");

	private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor();

	Vacuums(Database database, Duration every) {
		thread.scheduleWithFixedDelay(() -> vacuum(database), every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
	}

	private static void vacuum(Database database) {
		try {
			database.jdbc().sql("VACUUM jobqueue_job").update();
		}
		catch (RuntimeException ex) {
			log.warn("VACUUM jobqueue_job failed", ex);
		}
	}

	/** The server's autovacuum settings, as {@code name=value} pairs. */
	static String autovacuumSettings(Database database) {
		return AUTOVACUUM_SETTINGS.stream()
			.map(name -> name + "=" + database.jdbc().sql("SELECT current_setting(:name)").param("name", name)
				.query(String.class).single())
			.collect(Collectors.joining(" "));
	}

	@Override
	public void close() throws InterruptedException {
		thread.shutdown();
		thread.awaitTermination(1, TimeUnit.MINUTES);
	}
}

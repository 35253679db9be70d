package dev.jobqueue.store;

import java.util.Map;
import java.util.OptionalInt;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates and upgrades the queue's tables with Flyway, in a history table of our own
 * ({@code jobqueue_schema_history}) so that it never mixes with the application's own migrations.
 */
public final class JobSchema {

	public static final String HISTORY_TABLE = "jobqueue_schema_history";

	/**
	 * The schema version this code reads and writes: that of the last migration, which records it in
	 * {@code jobqueue_schema_version}.
	 */
	public static final int VERSION = 37;

	private static final Logger log = LoggerFactory.getLogger(JobSchema.class);

	private JobSchema() {
	}

	/**
	 * Flyway on {@code dataSource} with the migrations of {@code vendor} ({@link JobStore#vendor()}); each
	 * dialect runs it its own way, as processes that start together race to migrate differently on each.
	 */
	public static Flyway flyway(DataSource dataSource, String vendor) {
		return Flyway.configure(JobSchema.class.getClassLoader())
			.dataSource(dataSource)
			.table(HISTORY_TABLE)
			.locations("classpath:db/jobqueue/" + vendor)
			// The application's schema may already hold its own tables; ours go beside them.
			.baselineOnMigrate(true)
			.baselineVersion("0")
			// The SQLite migrations check their data with SELECTs that return no row; printed, their empty result
			// tables look like failures at an application's first start.
			.outputQueryResults(false)
			// By default Flyway holds its PostgreSQL lock in a transaction of its own for the whole run, and a
			// migration that builds an index CONCURRENTLY waits for every open transaction: for Flyway's, for ever.
			// The session's advisory lock instead holds nothing a concurrent index build waits for.
			.configuration(Map.of("flyway.postgresql.transactional.lock", "false"))
			.load();
	}

	/**
	 * Fails, naming both versions, unless the store's tables are at this code's schema version or newer.
	 * Older tables would fail on the first statement that needs what they lack, perhaps only hours later.
	 * Newer ones are what a rolling deploy looks like from a node not yet upgraded once a new node has
	 * migrated: this node carries on, with a warning, as every migration keeps the code before it working
	 * (columns added with defaults, states and indexes widened; the rolling-deploy fault scenario runs it).
	 */
	public static void verify(JobStore store) {
		String migrations = "the migrations in db/jobqueue/" + store.vendor() + " of the queue-core jar";
		OptionalInt found = store.reads().schemaVersion();
		if (found.isEmpty()) {
			throw new IllegalStateException("jobqueue's tables are missing, or older than schema version " + VERSION
					+ " (no table jobqueue_schema_version): this jobqueue needs version " + VERSION + ". Apply "
					+ migrations + ", or set jobqueue.initialize-schema=always to have them applied at startup");
		}
		if (found.getAsInt() < VERSION) {
			throw new IllegalStateException("jobqueue's tables are at schema version " + found.getAsInt()
					+ ", and this jobqueue needs version " + VERSION + ". Apply " + migrations + " after V"
					+ found.getAsInt() + ", or set jobqueue.initialize-schema=always to have them applied at startup");
		}
		if (found.getAsInt() > VERSION) {
			log.warn("jobqueue's tables are at schema version {}, newer than the version {} this node was built for: "
					+ "a newer node has migrated them (a rolling deploy). This node carries on; upgrade it", found.getAsInt(), VERSION);
		}
	}
}

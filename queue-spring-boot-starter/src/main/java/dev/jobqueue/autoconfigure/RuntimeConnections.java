package dev.jobqueue.autoconfigure;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Properties;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.ClassUtils;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.store.Dialect;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.mysql.MysqlDialect;
import dev.jobqueue.store.postgres.PostgresDialect;

/**
 * Where the runtime's own statements get their connections. Handlers hold connections of the application's
 * pool for as long as they run (a transactional one for its whole transaction); a heartbeat queued behind
 * them for a connection lets leases run out under live handlers. So, on a database server (PostgreSQL,
 * MySQL/MariaDB) behind a Hikari pool, the runtime gets a small pool of its own, built from the application's
 * settings: one connection per queue's poller, plus the heartbeat, the completion batcher, the reaper, the
 * pruner, the vacuum and the notification listener or change watcher ({@link #ownPoolSize}). Its statements give
 * up after a heartbeat interval, and its sockets a second later, so that a connection that silently died cannot
 * hold a role's thread.
 *
 * <p>Elsewhere (SQLite, whose one writer at a time a second pool would only make wait) the runtime shares the
 * application's pool; a Hikari pool is then sized for it at startup ({@link #sharedPoolSize}).
 */
final class RuntimeConnections implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(RuntimeConnections.class);

	private static final boolean HIKARI_PRESENT = ClassUtils.isPresent("com.zaxxer.hikari.HikariDataSource",
			RuntimeConnections.class.getClassLoader());

	private final DataSource dataSource;

	private final AutoCloseable owned;

	private RuntimeConnections(DataSource dataSource, AutoCloseable owned) {
		this.dataSource = dataSource;
		this.owned = owned;
	}

	/**
	 * The runtime's connections on {@code application}. {@code poolSizeChosen}: whether the application set
	 * {@code spring.datasource.hikari.maximum-pool-size}, which a shared pool then must meet; a size not set there
	 * (Boot's default, or one set in code) is raised to what the runtime needs, with a warning.
	 */
	static RuntimeConnections forRuntime(DataSource application, JobStore store, RuntimeSettings settings,
			boolean poolSizeChosen) {
		RuntimeConnections own = HIKARI_PRESENT ? Hikari.forRuntime(application, store, settings, poolSizeChosen)
				: null;
		return own != null ? own : new RuntimeConnections(application, null);
	}

	/** The runtime's connections: its own pool, or the application's when it has none. */
	DataSource dataSource() {
		return dataSource;
	}

	/** The store the runtime's own statements go to: on its own pool, if it has one, with their timeout. */
	JobStore ownStore(JobStore store, Dialect dialect, RuntimeSettings settings, boolean notify) {
		return owned == null ? store : dialect.store(dataSource, notify, statementTimeout(settings));
	}

	/**
	 * Pollers, heartbeat, completion batcher, notification listener, and the maintenance lease with the reaper,
	 * pruner and vacuum it lets run, on the node that holds it.
	 */
	static int ownPoolSize(RuntimeSettings settings) {
		return settings.queues().size() + 7;
	}

	/**
	 * Sharing the application's pool, the runtime's own threads may hold a connection each at once (the
	 * pollers, the heartbeat, the completion batcher, the reaper, the pruner, and the change watcher, which
	 * keeps one for good); below that plus one for a handler, jobs could wait for connections forever.
	 */
	static int sharedPoolSize(RuntimeSettings settings) {
		return settings.queues().size() + 6;
	}

	private static String sharedPoolTooSmall(int maximumPoolSize, RuntimeSettings settings) {
		return "spring.datasource.hikari.maximum-pool-size (" + maximumPoolSize + ") is too small for jobqueue: its "
				+ "runtime shares this pool and needs at least " + sharedPoolSize(settings) + " connections (one per "
				+ "queue in jobqueue.queues, " + settings.queues().keySet() + ", plus five of its own and one for a "
				+ "handler). Handlers of jobqueue.queues.<name>.concurrency threads each hold one while they run.";
	}

	/** A heartbeat interval: a statement of the runtime that takes longer fails and is tried again. */
	static Duration statementTimeout(RuntimeSettings settings) {
		Duration interval = settings.heartbeatInterval();
		return interval.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : interval;
	}

	@Override
	public void close() throws Exception {
		if (owned != null) {
			owned.close();
		}
	}

	/** Kept apart so that nothing of Hikari is loaded where it is absent. */
	private static final class Hikari {

		private static final Duration SOCKET_MARGIN = Duration.ofSeconds(1);

		/**
		 * The servers whose runtime gets a pool of its own, by vendor, with the unit of their drivers'
		 * {@code socketTimeout} property: PostgreSQL's driver reads seconds, MariaDB's and MySQL's milliseconds.
		 */
		private static final Map<String, ChronoUnit> SOCKET_TIMEOUT_UNITS = Map.of(PostgresDialect.VENDOR,
				ChronoUnit.SECONDS, MysqlDialect.VENDOR, ChronoUnit.MILLIS);

		/** The runtime's own pool, or null when it shares the application's (then sized here). */
		static RuntimeConnections forRuntime(DataSource application, JobStore store, RuntimeSettings settings,
				boolean poolSizeChosen) {
			if (!(application instanceof HikariDataSource hikari)) {
				return null;
			}
			ChronoUnit socketTimeoutUnit = SOCKET_TIMEOUT_UNITS.get(store.vendor());
			if (socketTimeoutUnit != null) {
				HikariDataSource pool = ownPool(hikari, settings, socketTimeoutUnit);
				return new RuntimeConnections(pool, pool);
			}
			sizeSharedPool(hikari, settings, poolSizeChosen);
			return null;
		}

		/**
		 * A size the application chose and the runtime cannot live with fails the startup; Boot's default of 10,
		 * which an application of five queues already outgrows, is raised instead: Hikari takes a new maximum
		 * while it runs.
		 */
		private static void sizeSharedPool(HikariDataSource pool, RuntimeSettings settings, boolean poolSizeChosen) {
			int size = pool.getMaximumPoolSize();
			int needed = sharedPoolSize(settings);
			if (size >= needed) {
				return;
			}
			if (poolSizeChosen) {
				throw new JobQueueStartupException(sharedPoolTooSmall(size, settings),
						"Set spring.datasource.hikari.maximum-pool-size=" + needed + " or more, plus one for each "
								+ "handler thread that uses the database at once; or remove it, and jobqueue raises "
								+ "the pool to " + needed + " itself.",
						null);
			}
			log.warn("{} Raised to {}; set spring.datasource.hikari.maximum-pool-size={} or more to choose the size "
					+ "yourself.", sharedPoolTooSmall(size, settings), needed, needed);
			pool.getHikariConfigMXBean().setMaximumPoolSize(needed);
		}

		private static HikariDataSource ownPool(HikariDataSource application, RuntimeSettings settings,
				ChronoUnit socketTimeoutUnit) {
			HikariConfig config = new HikariConfig();
			config.setPoolName(poolName(application) + "-jobqueue");
			config.setJdbcUrl(application.getJdbcUrl());
			config.setUsername(application.getUsername());
			config.setPassword(application.getPassword());
			if (application.getDriverClassName() != null) {
				config.setDriverClassName(application.getDriverClassName());
			}
			config.setDataSourceClassName(application.getDataSourceClassName());
			config.setDataSource(application.getDataSource());
			config.setSchema(application.getSchema());
			config.setCatalog(application.getCatalog());
			config.setConnectionInitSql(application.getConnectionInitSql());
			// The isolation every store's statements are written for, whatever the application's pool uses: on
			// MySQL/MariaDB, whose default is REPEATABLE READ, a statement outside the store's own transactions
			// (which set READ COMMITTED themselves) would otherwise lock the gaps between the rows it walks.
			config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
			config.setDataSourceProperties(
					socketTimeout(application.getDataSourceProperties(), settings, socketTimeoutUnit));
			config.setMaximumPoolSize(ownPoolSize(settings));
			// Opened as needed: most nodes use two at a time (the listener's and one role's).
			config.setMinimumIdle(1);
			// A role that cannot get a connection within a heartbeat interval fails its pass and tries again.
			config.setConnectionTimeout(Math.max(250, statementTimeout(settings).toMillis()));
			// Opens its first connection when a role asks: a server refusing connections at that moment
			// fails one pass, tried again, not the application's startup.
			config.setInitializationFailTimeout(-1);
			return new HikariDataSource(config);
		}

		private static String poolName(HikariDataSource application) {
			return application.getPoolName() != null ? application.getPoolName() : "HikariPool";
		}

		/** The application's driver properties, copied, with the socket timeout in the driver's unit. */
		private static Properties socketTimeout(Properties application, RuntimeSettings settings, ChronoUnit unit) {
			Properties copy = new Properties();
			copy.putAll(application);
			Duration timeout = statementTimeout(settings).plus(SOCKET_MARGIN);
			long value = unit == ChronoUnit.SECONDS ? timeout.toSeconds() : timeout.toMillis();
			copy.setProperty("socketTimeout", Long.toString(value));
			return copy;
		}
	}
}

package dev.jobqueue.core;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.DataSourceUtils;

import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.postgres.PostgresJobStore;
import dev.jobqueue.store.postgres.PostgresSchema;
import dev.jobqueue.store.sqlite.SqliteJobStore;
import dev.jobqueue.store.sqlite.SqliteSchema;

/** Picks the {@link JobStore} for a {@code DataSource} from its connection's metadata, once, at startup. */
public final class JobStores {

	/** The databases jobqueue supports, as {@link JobStore#vendor()} names them. */
	public static final String SUPPORTED = "postgresql, sqlite";

	private JobStores() {
	}

	/** The store for {@code dataSource}'s database; fails naming the supported ones for any other. */
	public static JobStore forDataSource(DataSource dataSource) {
		return forDataSource(dataSource, true);
	}

	/**
	 * The store for {@code dataSource}'s database; {@code notify} false keeps a PostgreSQL store from sending
	 * notifications (poll-only operation, behind PgBouncer's transaction pooling).
	 */
	public static JobStore forDataSource(DataSource dataSource, boolean notify) {
		return forVendor(vendorOf(dataSource), dataSource, notify);
	}

	/**
	 * The store for a vendor named in configuration ({@code postgresql}, {@code sqlite}); fails naming the
	 * supported ones for any other.
	 */
	public static JobStore forVendor(String vendor, DataSource dataSource) {
		return forVendor(vendor, dataSource, true);
	}

	/** As {@link #forVendor(String, DataSource)}, with PostgreSQL's notifications on or off. */
	public static JobStore forVendor(String vendor, DataSource dataSource, boolean notify) {
		return switch (vendor.toLowerCase(Locale.ROOT)) {
			case "postgresql" -> new PostgresJobStore(dataSource, notify);
			case "sqlite" -> new SqliteJobStore(dataSource);
			default -> throw new IllegalStateException(
					"jobqueue does not support the database '" + vendor + "'; supported: " + SUPPORTED);
		};
	}

	/**
	 * Creates or upgrades the queue's tables on {@code dataSource}, for the vendor named as by
	 * {@link JobStore#vendor()}; processes that start together all come up, the schema migrated once.
	 */
	public static void migrate(DataSource dataSource, String vendor) {
		switch (vendor) {
			case PostgresJobStore.VENDOR -> PostgresSchema.migrate(dataSource);
			case SqliteJobStore.VENDOR -> SqliteSchema.migrate(dataSource);
			default -> throw new IllegalStateException(
					"jobqueue does not support the database '" + vendor + "'; supported: " + SUPPORTED);
		}
	}

	/** The vendor name of {@code dataSource}'s database, read from its connection's metadata. */
	public static String vendorOf(DataSource dataSource) {
		Connection connection = DataSourceUtils.getConnection(dataSource);
		try {
			String product = connection.getMetaData().getDatabaseProductName();
			return product.toLowerCase(Locale.ROOT).replace(" ", "");
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not read the database's metadata to choose a jobqueue store", ex);
		}
		finally {
			DataSourceUtils.releaseConnection(connection, dataSource);
		}
	}
}

package dev.jobqueue.dialects;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.DataSourceUtils;

import dev.jobqueue.store.Dialect;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.mysql.MysqlDialect;
import dev.jobqueue.store.postgres.PostgresDialect;
import dev.jobqueue.store.sqlite.SqliteDialect;

/**
 * The databases the queue runs on, and the one place that lists them: picks the {@link Dialect} for a
 * {@code DataSource} from its connection's metadata (or for a vendor named in configuration), once, at
 * startup. Supporting another database is a dialect package and a line here.
 */
public final class JobStores {

	private static final List<Dialect> DIALECTS = List.of(new PostgresDialect(), new SqliteDialect(),
			new MysqlDialect());

	/** The databases jobqueue supports, as {@link JobStore#vendor()} names them. */
	public static final String SUPPORTED = DIALECTS.stream().map(Dialect::vendor).collect(Collectors.joining(", "));

	private JobStores() {
	}

	/** The dialect of {@code vendor} ({@code mariadb} is {@code mysql}'s); fails naming the supported ones otherwise. */
	public static Dialect dialect(String vendor) {
		String name = canonical(vendor.toLowerCase(Locale.ROOT));
		return DIALECTS.stream()
			.filter(dialect -> dialect.vendor().equals(name))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException(
					"jobqueue does not support the database '" + vendor + "'; supported: " + SUPPORTED));
	}

	/** The dialect of {@code dataSource}'s database; fails naming the supported ones for any other. */
	public static Dialect dialect(DataSource dataSource) {
		return dialect(vendorOf(dataSource));
	}

	/** The store for {@code dataSource}'s database, notifying other processes where it can. */
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

	/** As {@link #forDataSource(DataSource, boolean)}, for a vendor named in configuration. */
	public static JobStore forVendor(String vendor, DataSource dataSource, boolean notify) {
		return dialect(vendor).store(dataSource, notify, Duration.ZERO);
	}

	/** Creates or upgrades the queue's tables on {@code dataSource}, for the vendor {@link JobStore#vendor()} names. */
	public static void migrate(DataSource dataSource, String vendor) {
		dialect(vendor).migrate(dataSource);
	}

	/**
	 * The vendor name of {@code dataSource}'s database, read from its connection's metadata. MariaDB is served by
	 * the MySQL dialect: MariaDB Connector/J names it "MariaDB", MySQL Connector/J "MySQL" on either server.
	 */
	public static String vendorOf(DataSource dataSource) {
		Connection connection = DataSourceUtils.getConnection(dataSource);
		try {
			return canonical(connection.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT).replace(" ", ""));
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not read the database's metadata to choose a jobqueue store", ex);
		}
		finally {
			DataSourceUtils.releaseConnection(connection, dataSource);
		}
	}

	/** MariaDB is served by the MySQL dialect; every other name is its own. */
	private static String canonical(String vendor) {
		return vendor.equals("mariadb") ? MysqlDialect.VENDOR : vendor;
	}
}

package dev.jobqueue.support;

import java.time.Duration;
import java.util.List;

import javax.sql.DataSource;

import org.junit.jupiter.api.Assumptions;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.mysql.MySQLContainer;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.jobqueue.dialects.JobStores;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.mysql.MysqlDialect;
import dev.jobqueue.store.mysql.support.MysqlClaimMethod;

/**
 * MySQL or MariaDB for tests: the server named by {@code JOBQUEUE_TEST_MYSQL_URL} when it is set, otherwise a
 * Testcontainers {@code mysql:8} container. Without either the test is skipped with a notice, except under
 * {@code CI=true}, where a missing database fails the test. The pool is left at the server's default isolation
 * (REPEATABLE READ): the store must bring its own READ COMMITTED.
 */
public final class MysqlTestDatabase implements TestDatabase {

	public static final String URL_VARIABLE = "JOBQUEUE_TEST_MYSQL_URL";

	private static MySQLContainer container;

	private final String url;

	private final HikariDataSource dataSource;

	private final JobStore store;

	public MysqlTestDatabase() {
		this(32);
	}

	public MysqlTestDatabase(int poolSize) {
		this(url(), poolSize, null);
	}

	/** The claim forced to {@code claimMethod}, whatever the server supports. */
	public MysqlTestDatabase(MysqlClaimMethod claimMethod) {
		this(url(), 32, claimMethod);
	}

	/**
	 * The database at {@code url}, through whichever driver its scheme names; the claim by the server's version
	 * when {@code claimMethod} is null.
	 */
	public MysqlTestDatabase(String url, int poolSize, MysqlClaimMethod claimMethod) {
		this.url = url;
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url);
		config.setMaximumPoolSize(poolSize);
		this.dataSource = new HikariDataSource(config);
		JobStores.migrate(dataSource, "mysql");
		this.store = claimMethod == null ? MysqlDialect.jobStore(dataSource)
				: MysqlDialect.jobStore(dataSource, Duration.ZERO, claimMethod);
	}

	/** The JDBC URL of the test server (user and password included), starting a container if needed. */
	public static synchronized String url() {
		String configured = System.getenv(URL_VARIABLE);
		if (configured != null && !configured.isBlank()) {
			return configured;
		}
		boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
		if (!DockerClientFactory.instance().isDockerAvailable()) {
			String problem = "No MySQL or MariaDB for the tests: set " + URL_VARIABLE
					+ " (e.g. jdbc:mariadb://127.0.0.1:3306/test?user=root) or make Docker available";
			if (ci) {
				throw new IllegalStateException(problem + "; under CI=true this is a failure, not a skip");
			}
			Assumptions.abort(problem);
		}
		if (container == null) {
			// As root: the tests create databases and triggers, which the image's default user may not.
			container = new MySQLContainer("mysql:8").withUsername("root");
			container.start();
		}
		String jdbcUrl = container.getJdbcUrl();
		return jdbcUrl + (jdbcUrl.contains("?") ? "&" : "?") + "user=" + container.getUsername() + "&password="
				+ container.getPassword();
	}

	/**
	 * {@link #url()} through the other driver: MySQL Connector/J for a MariaDB URL, with the batch rewriting the
	 * README recommends for it, and MariaDB Connector/J for a MySQL one.
	 */
	public static String otherDriverUrl() {
		String url = url();
		if (url.startsWith("jdbc:mariadb:")) {
			String mysql = url.replaceFirst("^jdbc:mariadb:", "jdbc:mysql:");
			return mysql + (mysql.contains("?") ? "&" : "?") + "rewriteBatchedStatements=true";
		}
		return url.replaceFirst("^jdbc:mysql:", "jdbc:mariadb:");
	}

	@Override
	public DataSource dataSource() {
		return dataSource;
	}

	@Override
	public JobStore store() {
		return store;
	}

	@Override
	public void reset() {
		JdbcClient jdbc = JdbcClient.create(dataSource);
		jdbc.sql("DROP TRIGGER IF EXISTS jobqueue_test_refuse_poison").update();
		jdbc.sql("DELETE FROM jobqueue_job").update();
		jdbc.sql("DELETE FROM jobqueue_job_step").update();
		jdbc.sql("DELETE FROM jobqueue_job_dependency").update();
		jdbc.sql("DELETE FROM jobqueue_batch").update();
		jdbc.sql("DELETE FROM jobqueue_batch_job").update();
		jdbc.sql("DELETE FROM jobqueue_schedule").update();
		jdbc.sql("DELETE FROM jobqueue_pause").update();
		jdbc.sql("DELETE FROM jobqueue_maintenance").update();
		jdbc.sql("DELETE FROM jobqueue_node").update();
		jdbc.sql("DELETE FROM jobqueue_kind").update();
		jdbc.sql("DELETE FROM jobqueue_key").update();
	}

	@Override
	public void refusePoison() {
		JdbcClient.create(dataSource).sql("""
				CREATE TRIGGER jobqueue_test_refuse_poison BEFORE INSERT ON jobqueue_job FOR EACH ROW
				BEGIN
				    IF NEW.kind = 'poison' THEN
				        SIGNAL SQLSTATE '23000' SET MESSAGE_TEXT = 'job of kind poison refused by a test trigger';
				    END IF;
				END""").update();
	}

	/**
	 * How many deadlocks InnoDB detected since the server started, on any connection: MariaDB counts them in
	 * {@code Innodb_deadlocks}, MySQL 8 in the {@code lock_deadlocks} metric. A deadlock the store retried or
	 * that failed a statement without a warning still counts here.
	 */
	public long deadlocks() {
		JdbcClient jdbc = JdbcClient.create(dataSource);
		List<Long> mariadb = jdbc.sql("SHOW GLOBAL STATUS LIKE 'Innodb_deadlocks'")
			.query((rs, row) -> rs.getLong(2))
			.list();
		if (!mariadb.isEmpty()) {
			return mariadb.get(0);
		}
		return jdbc.sql("SELECT `count` FROM information_schema.innodb_metrics WHERE name = 'lock_deadlocks'")
			.query(Long.class)
			.single();
	}

	@Override
	public String jdbcUrl() {
		return url;
	}

	@Override
	public void close() {
		dataSource.close();
	}
}

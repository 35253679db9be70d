package dev.jobqueue.support;

import javax.sql.DataSource;

import org.junit.jupiter.api.Assumptions;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.jobqueue.dialects.JobStores;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.postgres.PostgresDialect;

/**
 * PostgreSQL for tests: the server named by {@code JOBQUEUE_TEST_POSTGRES_URL} when it is set,
 * otherwise a Testcontainers container. Without either the test is skipped with a notice, except
 * under {@code CI=true}, where a missing database fails the test.
 */
public final class PostgresTestDatabase implements TestDatabase {

	public static final String URL_VARIABLE = "JOBQUEUE_TEST_POSTGRES_URL";

	private static PostgreSQLContainer container;

	private final String url;

	private final HikariDataSource dataSource;

	private final JobStore store;

	public PostgresTestDatabase() {
		this(32);
	}

	public PostgresTestDatabase(int poolSize) {
		this.url = url();
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url);
		config.setMaximumPoolSize(poolSize);
		this.dataSource = new HikariDataSource(config);
		JobStores.migrate(dataSource, "postgresql");
		this.store = PostgresDialect.jobStore(dataSource);
	}

	/** The JDBC URL of the test server (user and password included), starting a container if needed. */
	public static synchronized String url() {
		String configured = System.getenv(URL_VARIABLE);
		if (configured != null && !configured.isBlank()) {
			return configured;
		}
		boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
		if (!DockerClientFactory.instance().isDockerAvailable()) {
			String problem = "No PostgreSQL for the tests: set " + URL_VARIABLE
					+ " (e.g. jdbc:postgresql://127.0.0.1:5432/test?user=postgres) or make Docker available";
			if (ci) {
				throw new IllegalStateException(problem + "; under CI=true this is a failure, not a skip");
			}
			Assumptions.abort(problem);
		}
		if (container == null) {
			container = new PostgreSQLContainer("postgres:16-alpine");
			container.start();
		}
		return container.getJdbcUrl() + "&user=" + container.getUsername() + "&password=" + container.getPassword();
	}

	/** A pool of one connection to this database, for tests that look at what one session did. */
	public HikariDataSource oneConnectionPool() {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url);
		config.setMaximumPoolSize(1);
		return new HikariDataSource(config);
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
		jdbc.sql("DROP TRIGGER IF EXISTS jobqueue_test_refuse_poison ON jobqueue_job").update();
		jdbc.sql("TRUNCATE jobqueue_job, jobqueue_job_step, jobqueue_job_dependency, jobqueue_batch, jobqueue_batch_job, jobqueue_schedule, jobqueue_pause, jobqueue_maintenance, jobqueue_node, jobqueue_kind").update();
	}

	@Override
	public void refusePoison() {
		JdbcClient jdbc = JdbcClient.create(dataSource);
		jdbc.sql("""
				CREATE OR REPLACE FUNCTION jobqueue_test_refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
				BEGIN
				    RAISE EXCEPTION 'job of kind poison refused by a test trigger' USING ERRCODE = 'check_violation';
				END $$""").update();
		jdbc.sql("""
				CREATE TRIGGER jobqueue_test_refuse_poison BEFORE INSERT ON jobqueue_job
				FOR EACH ROW WHEN (NEW.kind = 'poison') EXECUTE FUNCTION jobqueue_test_refuse_poison()""").update();
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

package dev.jobqueue.postgres;

import java.util.List;

import javax.sql.DataSource;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.jobqueue.contract.FinishedIndexUpgradeContractTest;
import dev.jobqueue.store.postgres.PostgresDialect;
import dev.jobqueue.support.JdbcUrls;
import dev.jobqueue.support.PostgresTestDatabase;

/** The upgrade to one index of finished rows, in a database of its own on the test server, named after the test one. */
class PostgresFinishedIndexUpgradeTest extends FinishedIndexUpgradeContractTest {

	private SingleConnectionDataSource admin;

	private String database;

	private HikariDataSource dataSource;

	@Override
	protected DataSource emptyDatabase() {
		admin = new SingleConnectionDataSource(PostgresTestDatabase.url(), true);
		JdbcClient jdbc = JdbcClient.create(admin);
		database = jdbc.sql("SELECT current_database()").query(String.class).single() + "_finished_upgrade";
		jdbc.sql("DROP DATABASE IF EXISTS " + database).update();
		jdbc.sql("CREATE DATABASE " + database).update();
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(JdbcUrls.withDatabase(PostgresTestDatabase.url(), database));
		config.setMaximumPoolSize(4);
		dataSource = new HikariDataSource(config);
		return dataSource;
	}

	@Override
	protected void dropDatabase() {
		dataSource.close();
		JdbcClient.create(admin).sql("DROP DATABASE IF EXISTS " + database).update();
		admin.destroy();
	}

	@Override
	protected String vendor() {
		return PostgresDialect.VENDOR;
	}

	@Override
	protected List<String> indexes(JdbcClient jdbc) {
		return jdbc
			.sql("SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'jobqueue_job'")
			.query(String.class)
			.list();
	}

	@Override
	protected String finishedEarlierBy() {
		return """
				UPDATE jobqueue_job SET finished_at = finished_at - :millis * interval '1 millisecond'
				WHERE id IN (:ids)""";
	}
}

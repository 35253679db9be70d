package dev.jobqueue.postgres;

import java.util.List;

import javax.sql.DataSource;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.contract.FinishedIndexUpgradeContractTest;
import dev.jobqueue.store.postgres.PostgresDialect;
import dev.jobqueue.support.DatabaseOfItsOwn;
import dev.jobqueue.support.PostgresTestDatabase;

/** The upgrade to one index of finished rows, in a database of its own on the test server, named after the test one. */
class PostgresFinishedIndexUpgradeTest extends FinishedIndexUpgradeContractTest {

	private DatabaseOfItsOwn database;

	@Override
	protected DataSource emptyDatabase() {
		database = new DatabaseOfItsOwn(PostgresTestDatabase.url(), "finished_upgrade");
		return database.dataSource();
	}

	@Override
	protected void dropDatabase() {
		database.close();
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
	protected String now() {
		return "statement_timestamp()";
	}

	@Override
	protected String finishedEarlierBy() {
		return """
				UPDATE jobqueue_job SET finished_at = finished_at - :millis * interval '1 millisecond'
				WHERE id IN (:ids)""";
	}
}

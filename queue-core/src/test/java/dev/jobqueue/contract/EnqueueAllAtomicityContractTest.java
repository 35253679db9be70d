package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.ConnectionHolder;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.TestDatabase;

/**
 * A batch commits whole or leaves nothing, however the caller's transactions are arranged. Its last job
 * is refused by the database itself (a trigger, as a constraint would), after every job before it was
 * written: on PostgreSQL the unkeyed ones by COPY, then the keyed ones by a second statement.
 */
public abstract class EnqueueAllAtomicityContractTest {

	private QueueFixture fixture;

	protected abstract TestDatabase database();

	@BeforeEach
	void setUp() {
		fixture = new QueueFixture(database());
		database().refusePoison();
	}

	@AfterEach
	void tearDown() {
		fixture.close();
		database().reset();
	}

	@Test
	void aBatchWhoseLastJobTheDatabaseRefusesLeavesNoJob() {
		assertThatExceptionOfType(DataAccessException.class).isThrownBy(() -> fixture.queue().enqueueAll(batch()));

		assertThat(jobIds()).isEmpty();
	}

	@Test
	void insideTheCallersTransactionTheRefusedBatchLeavesNoJobAndTheTransactionGoesOn() {
		List<Long> kept = fixture.transactions().execute(status -> {
			long before = fixture.queue().enqueue("greet", new Greeting("before", 1));
			assertThatExceptionOfType(DataAccessException.class).isThrownBy(() -> fixture.queue().enqueueAll(batch()));
			long after = fixture.queue().enqueue("greet", new Greeting("after", 2));
			return List.of(before, after);
		});

		assertThat(jobIds()).containsExactlyElementsOf(kept);
	}

	@Test
	void insideATransactionOnAnotherDataSourceTheRefusedBatchLeavesNoJob() {
		DriverManagerDataSource other = new DriverManagerDataSource(database().jdbcUrl());
		new TransactionTemplate(new JdbcTransactionManager(other)).executeWithoutResult(status -> {
			JdbcClient.create(other).sql("SELECT 1").query(Integer.class).single();
			assertThatExceptionOfType(DataAccessException.class).isThrownBy(() -> fixture.queue().enqueueAll(batch()));
			assertThat(jobIds()).as("rows seen before the other transaction ends").isEmpty();
		});

		assertThat(jobIds()).isEmpty();
	}

	@Test
	void insideATransactionOnAnotherDataSourceAGoodBatchCommitsOnItsOwn() {
		DriverManagerDataSource other = new DriverManagerDataSource(database().jdbcUrl());
		List<Long> ids = new TransactionTemplate(new JdbcTransactionManager(other))
			.execute(status -> fixture.queue().enqueueAll(batch().subList(0, 4)));

		assertThat(jobIds()).containsExactlyElementsOf(ids);
	}

	/**
	 * JpaTransactionManager exposes its JDBC connection this way: bound for the DataSource, auto-commit
	 * off, but not marked as a transaction that a JdbcTransactionManager would join.
	 */
	@Test
	void insideATransactionBoundAsJpaBindsItTheRefusedBatchLeavesNoJobAndTheTransactionGoesOn() throws SQLException {
		DataSource dataSource = database().dataSource();
		List<Long> kept;
		try (Connection connection = dataSource.getConnection()) {
			connection.setAutoCommit(false);
			TransactionSynchronizationManager.initSynchronization();
			TransactionSynchronizationManager.bindResource(dataSource, new ConnectionHolder(connection));
			try {
				long before = fixture.queue().enqueue("greet", new Greeting("before", 1));
				assertThatExceptionOfType(DataAccessException.class).isThrownBy(() -> fixture.queue().enqueueAll(batch()));
				long after = fixture.queue().enqueue("greet", new Greeting("after", 2));
				kept = List.of(before, after);
				connection.commit();
			}
			finally {
				TransactionSynchronizationManager.unbindResource(dataSource);
				TransactionSynchronizationManager.clearSynchronization();
				connection.setAutoCommit(true);
			}
		}

		assertThat(jobIds()).containsExactlyElementsOf(kept);
	}

	/** Unkeyed jobs, keyed jobs, and last a keyed job of the refused kind. */
	private static List<NewJobRequest> batch() {
		return List.of(new NewJobRequest("greet", new Greeting("a", 1)),
				new NewJobRequest("greet", new Greeting("b", 2)),
				new NewJobRequest("greet", new Greeting("c", 3), EnqueueOptions.defaults().uniqueKey("c")),
				new NewJobRequest("greet", new Greeting("d", 4), EnqueueOptions.defaults().uniqueKey("d")),
				new NewJobRequest(TestDatabase.POISON, new Greeting("e", 5), EnqueueOptions.defaults().uniqueKey("e")));
	}

	private List<Long> jobIds() {
		return fixture.jdbc().sql("SELECT id FROM jobqueue_job ORDER BY id").query(Long.class).list();
	}
}

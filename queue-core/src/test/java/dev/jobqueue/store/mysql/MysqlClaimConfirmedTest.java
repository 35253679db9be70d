package dev.jobqueue.store.mysql;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DelegatingDataSource;

import dev.jobqueue.Job;
import dev.jobqueue.JobState;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.mysql.support.MysqlClaimMethod;
import dev.jobqueue.support.MysqlTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A claim confirmed by its own update ({@code ClaimStore.claim}, confirmed), with both claims, on the machine's MariaDB:
 * when the answer to the claim's last statement is lost after the server carried it out (the commit of the locking
 * claim, the compare-and-set update in auto-commit), the claim's confirmation is taken back, so the reaper gives the
 * attempt back as for a plain claim whose answer was lost.
 */
class MysqlClaimConfirmedTest {

	private static final Map<String, Integer> SERVED = Map.of("greet", 1);

	private static final Duration MOMENT = Duration.ofMillis(1);

	private static MysqlTestDatabase database;

	private final AtomicBoolean loseNextAnswer = new AtomicBoolean();

	@BeforeAll
	static void openDatabase() {
		database = new MysqlTestDatabase(4);
	}

	@AfterAll
	static void closeDatabase() {
		database.close();
	}

	@BeforeEach
	void empty() {
		database.reset();
	}

	@ParameterizedTest
	@EnumSource(MysqlClaimMethod.class)
	void aClaimWhoseLastAnswerIsLostIsTakenBackAndGetsItsAttemptBackWhenReaped(MysqlClaimMethod method) {
		long id = enqueue();
		JobStore store = MysqlDialect.jobStore(losingAnswers(database.dataSource()), Duration.ZERO, method);
		loseNextAnswer.set(true);

		assertThatThrownBy(() -> store.claims().claim("default", SERVED, 1, "w", MOMENT, true))
			.hasStackTraceContaining("the answer was lost");

		assertThat(loseNextAnswer).as("the answer was lost").isFalse();
		assertThat(database.store().reads().find(id).orElseThrow().state()).as("the claim committed").isEqualTo(JobState.running);
		assertThat(confirmed(id)).isTrue();
		store.claims().takeBackConfirmations("w", "default", List.of());
		assertThat(confirmed(id)).isFalse();
		awaitLeaseExpiry();
		assertThat(store.maintenance().reapExpired(10)).isEqualTo(1);
		Job job = database.store().reads().find(id).orElseThrow();
		assertThat(job.state()).isEqualTo(JobState.ready);
		assertThat(job.attempt()).isZero();
		assertThat(job.lastError()).contains("before its worker confirmed the claim");
		ClaimedJob again = store.claims().claim("default", SERVED, 1, "w", Duration.ofMinutes(1), true).get(0);
		assertThat(again.attempt()).isEqualTo(1);
	}

	/**
	 * The statements and commits of {@code dataSource}, of which the next claim's last one, once armed, is carried
	 * out by the server and then fails as if its answer never arrived.
	 */
	private DataSource losingAnswers(DataSource dataSource) {
		return new DelegatingDataSource(dataSource) {
			@Override
			public Connection getConnection() throws SQLException {
				Connection connection = super.getConnection();
				return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
						new Class<?>[] { Connection.class }, (proxy, method, args) -> {
							Object result = invoke(connection, method, args);
							if (method.getName().equals("commit")) {
								loseIfArmed();
							}
							if (method.getName().equals("prepareStatement") && ((String) args[0]).contains("'running'")) {
								return losingUpdate(connection, (PreparedStatement) result);
							}
							return result;
						});
			}
		};
	}

	/** A compare-and-set update in auto-commit is its own commit: its answer is the one lost. */
	private PreparedStatement losingUpdate(Connection connection, PreparedStatement statement) {
		return (PreparedStatement) Proxy.newProxyInstance(getClass().getClassLoader(),
				new Class<?>[] { PreparedStatement.class }, (proxy, method, args) -> {
					Object result = invoke(statement, method, args);
					if (method.getName().startsWith("execute") && connection.getAutoCommit()) {
						loseIfArmed();
					}
					return result;
				});
	}

	private void loseIfArmed() throws SQLException {
		if (loseNextAnswer.compareAndSet(true, false)) {
			throw new SQLException("the answer was lost");
		}
	}

	private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
		try {
			return method.invoke(target, args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getCause();
		}
	}

	private static boolean confirmed(long id) {
		return JdbcClient.create(database.dataSource())
			.sql("SELECT claim_confirmed FROM jobqueue_job WHERE id = :id")
			.param("id", id)
			.query(Boolean.class)
			.single();
	}

	private static long enqueue() {
		return database.store()
			.enqueues().enqueue(new NewJob("default", "greet", "{}", 1, 5, null, Duration.ZERO, 1, null, null, null))
			.id();
	}

	private static void awaitLeaseExpiry() {
		try {
			Thread.sleep(20);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}
}

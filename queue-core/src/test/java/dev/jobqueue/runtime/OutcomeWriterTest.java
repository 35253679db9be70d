package dev.jobqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.time.Duration;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.support.SQLStateSQLExceptionTranslator;

import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Lease;

class OutcomeWriterTest {

	private static final ClaimedJob JOB = new ClaimedJob(7, "default", "work", "{}", 1, 1, 3, 5, new Lease(7, 1),
			Instant.EPOCH, Instant.EPOCH, 0, null, null, false);

	private final OutcomeWriter writer = new OutcomeWriter(Duration.ofSeconds(2), Duration.ofMillis(10),
			Duration.ofMillis(40));

	private final AtomicInteger tries = new AtomicInteger();

	@Test
	void aWriteThatMeetsAConnectionFailureIsTriedAgainUntilTheDatabaseAnswers() {
		boolean written = writer.write(JOB, () -> {
			if (tries.incrementAndGet() <= 3) {
				throw new CannotGetJdbcConnectionException("Connection refused");
			}
			return true;
		});

		assertThat(written).isTrue();
		assertThat(tries).hasValue(4);
	}

	@Test
	void aFencedWriteThatChangesNothingAfterARetryIsReportedAsNotWritten() {
		boolean written = writer.write(JOB, () -> {
			if (tries.incrementAndGet() == 1) {
				throw new DataAccessResourceFailureException("I/O error: connection reset");
			}
			return false;
		});

		assertThat(written).isFalse();
		assertThat(tries).hasValue(2);
	}

	@Test
	void anErrorOfTheWriteItselfIsNotRetried() {
		assertThatExceptionOfType(DataIntegrityViolationException.class).isThrownBy(() -> writer.write(JOB, () -> {
			tries.incrementAndGet();
			throw new DataIntegrityViolationException("invalid byte sequence");
		}));
		assertThat(tries).hasValue(1);
	}

	@Test
	void aRefusalWhoseSqlStateIsNotAConnectionFailureIsNotRetriedWhateverSpringCallsIt() {
		// Spring's SQLState translation files classes 53, 54, 57 and 58 as resource failures, beside 08.
		for (String state : List.of("54000", "22P05", "53100")) {
			DataAccessException refusal = translated("total size of jsonb array elements exceeds the maximum", state);
			tries.set(0);

			assertThatExceptionOfType(DataAccessException.class).isThrownBy(() -> writer.write(JOB, () -> {
				tries.incrementAndGet();
				throw refusal;
			})).isSameAs(refusal);
			assertThat(tries).as("tries after SQLSTATE %s", state).hasValue(1);
		}
	}

	@Test
	void aFailureWithAConnectionSqlStateIsRetried() {
		DataAccessException broken = translated("An I/O error occurred while sending to the backend", "08006");

		boolean written = writer.write(JOB, () -> {
			if (tries.incrementAndGet() == 1) {
				throw broken;
			}
			return true;
		});

		assertThat(broken).isInstanceOf(DataAccessResourceFailureException.class);
		assertThat(written).isTrue();
		assertThat(tries).hasValue(2);
	}

	@Test
	void aPoolThatHandsOutNoConnectionIsAnOutageWhateverTheLastRefusalSaid() {
		CannotGetJdbcConnectionException noConnection = new CannotGetJdbcConnectionException(
				"Failed to obtain JDBC Connection", new SQLTransientConnectionException(
						"HikariPool-1 - Connection is not available, request timed out after 30000ms", "53300"));

		boolean written = writer.write(JOB, () -> {
			if (tries.incrementAndGet() == 1) {
				throw noConnection;
			}
			return true;
		});

		assertThat(written).isTrue();
		assertThat(tries).hasValue(2);
	}

	@Test
	void aSessionTheServerEndedIsAnOutage() {
		DataAccessException ended = translated("terminating connection due to administrator command", "57P01");

		boolean written = writer.write(JOB, () -> {
			if (tries.incrementAndGet() == 1) {
				throw ended;
			}
			return true;
		});

		assertThat(written).isTrue();
		assertThat(tries).hasValue(2);
	}

	private static DataAccessException translated(String message, String sqlState) {
		return new SQLStateSQLExceptionTranslator().translate("complete", "UPDATE jobqueue_job …",
				new SQLException(message, sqlState));
	}

	@Test
	void itGivesUpOnceItsPatienceIsSpent() {
		OutcomeWriter impatient = new OutcomeWriter(Duration.ofMillis(200), Duration.ofMillis(10),
				Duration.ofMillis(40));
		long start = System.nanoTime();

		assertThatExceptionOfType(CannotGetJdbcConnectionException.class).isThrownBy(() -> impatient.write(JOB, () -> {
			tries.incrementAndGet();
			throw new CannotGetJdbcConnectionException("Connection refused");
		}));
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
		assertThat(tries.get()).isBetween(3, 8);
	}

	@Test
	void anInterruptStopsTheRetriesAndIsKept() {
		Thread.currentThread().interrupt();
		try {
			assertThatExceptionOfType(CannotGetJdbcConnectionException.class).isThrownBy(() -> writer.write(JOB, () -> {
				tries.incrementAndGet();
				throw new CannotGetJdbcConnectionException("Connection refused");
			}));
			assertThat(Thread.currentThread().isInterrupted()).isTrue();
			assertThat(tries).hasValue(1);
		}
		finally {
			Thread.interrupted();
		}
	}
}

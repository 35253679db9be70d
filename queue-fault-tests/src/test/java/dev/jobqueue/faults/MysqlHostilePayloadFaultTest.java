package dev.jobqueue.faults;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.util.Set;

import org.junit.jupiter.api.Test;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;

/**
 * Scenario 7 on MySQL or MariaDB, whose payload column is text checked by {@code JSON_VALID}: it refuses
 * malformed JSON, and on MariaDB also JSON nested 32 levels or more, so the too-deep row never reaches a
 * worker there.
 */
class MysqlHostilePayloadFaultTest extends HostilePayloadFaultTest {

	private static final String REFUSED = "CONSTRAINT `jobqueue_job.payload` failed";

	@Override
	FaultDatabase newDatabase() {
		return new MysqlFaultDatabase();
	}

	@Test
	void jsonNestedTooDeepCannotEvenEnterTheTable() throws Exception {
		String tooDeep = hostilePayloads().get("too-deep");

		assertThatExceptionOfType(DataIntegrityViolationException.class).isThrownBy(() -> insert("probe", tooDeep))
			.withMessageContaining(REFUSED);
	}

	/** The run and creation times have no default here: the queue writes them from the database's clock. */
	@Override
	long insert(String kind, String payload) {
		KeyHolder id = new GeneratedKeyHolder();
		database.jdbc()
			.sql("""
					INSERT INTO jobqueue_job (queue, kind, payload, state, max_attempts, run_at, created_at)
					VALUES ('default', :kind, :payload, 'ready', :attempts, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))""")
			.param("kind", kind)
			.param("payload", payload)
			.param("attempts", ATTEMPTS)
			.update(id);
		return id.getKey().longValue();
	}

	@Override
	String malformedJsonRefusal() {
		return REFUSED;
	}

	@Override
	Set<String> refusedByThePayloadColumn() {
		return Set.of("too-deep");
	}
}

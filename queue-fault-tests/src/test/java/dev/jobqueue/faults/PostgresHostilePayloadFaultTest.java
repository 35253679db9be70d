package dev.jobqueue.faults;

/** Scenario 7 on PostgreSQL, whose {@code jsonb} column refuses malformed JSON. */
class PostgresHostilePayloadFaultTest extends HostilePayloadFaultTest {

	@Override
	FaultDatabase newDatabase() {
		return new PostgresFaultDatabase();
	}

	@Override
	long insert(String kind, String payload) {
		return database.jdbc()
			.sql("""
					INSERT INTO jobqueue_job (queue, kind, payload, state, max_attempts)
					VALUES ('default', :kind, CAST(:payload AS jsonb), 'ready', :attempts) RETURNING id""")
			.param("kind", kind)
			.param("payload", payload)
			.param("attempts", ATTEMPTS)
			.query(Long.class)
			.single();
	}

	@Override
	String malformedJsonRefusal() {
		return "invalid input syntax for type json";
	}
}

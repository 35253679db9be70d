package dev.jobqueue.faults;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.AfterAll;

import dev.jobqueue.faults.app.FaultWorkerApplication;
import dev.jobqueue.support.PgBouncer;

/**
 * Scenario 14: scenario 1 with each worker JVM behind a real PgBouncer in transaction pooling mode, set up
 * as README's "Behind PgBouncer" says ({@code prepareThreshold=0}, {@code jobqueue.notify=false}): the
 * worker's pools, the application's and the runtime's own, share four server connections. The test's
 * enqueues and checks go to PostgreSQL directly.
 *
 * <p>A PgBouncer per worker, which opens its server connections with the worker's application name
 * ({@link PgBouncer#start(String)}): the audit names each write's process by the session's
 * {@code application_name}, and what PgBouncer 1.18 sets there for each client cannot be trusted (through
 * one PgBouncer shared by the workers, and through one per worker that left the name to its clients,
 * writes were credited to the wrong worker or to none).
 */
class PostgresPgBouncerWorkerKilledFaultTest extends WorkerKilledFaultTest {

	private final Map<String, PgBouncer> bouncers = new ConcurrentHashMap<>();

	@Override
	FaultDatabase newDatabase() {
		return new PostgresFaultDatabase();
	}

	@Override
	WorkerFleet fleet() throws IOException {
		return fleet(new WorkerFleet.WorkerDatabases() {
			@Override
			public String jdbcUrl(String worker) {
				PgBouncer bouncer = PgBouncer.prepare(database.jdbcUrl(), 4);
				bouncers.put(worker, bouncer);
				return bouncer.jdbcUrl() + "&prepareThreshold=0";
			}

			/** Milliseconds after the JVM's start, seconds before Spring Boot opens its first connection. */
			@Override
			public void started(String worker, long pid) {
				bouncers.get(worker).start(FaultWorkerApplication.applicationName(pid));
			}
		// The schema is migrated before the workers start, over a direct connection, as README asks: Flyway's
		// session-level lock cannot go through transaction pooling.
		}, Map.of("jobqueue.notify", "false", "jobqueue.initialize-schema", "never"));
	}

	@Override
	String scenario() {
		return "scenario 14 (SIGKILL one of three workers, each behind PgBouncer)";
	}

	@AfterAll
	void stopPgBouncers() {
		bouncers.values().forEach(PgBouncer::close);
	}
}

package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.jobqueue.JobState;
import dev.jobqueue.support.CountingListener;
import dev.jobqueue.support.QueueFixture;

/**
 * Steps on the databases that lock rows (PostgreSQL, MySQL/MariaDB): a step's record must lock no job row, or a
 * transactional handler would hold it past its step and the heartbeat, which passes over locked rows, would let the
 * lease run out. SQLite locks the whole database for a writing transactional handler instead, a rule of its own
 * (its lease must outlast the busy timeout, as its startup warns).
 */
public abstract class RowLockingStepsContractTest extends StepsContractTest {

	@Test
	void aTransactionalHandlerThatRecordedAStepKeepsItsLeaseExtendedPastTheLeaseDuration() {
		AtomicInteger runs = new AtomicInteger();
		fixture.handle("long-booking", Greeting.class, null, true, (greeting, context) -> {
			runs.incrementAndGet();
			context.step("book", () -> ran.add("book"));
			// Past two lease durations: only heartbeats that pass the step's row keep the job here.
			Thread.sleep(2_500);
			return context.attempt();
		});
		fixture.startRuntime(QueueFixture.SETTINGS.toBuilder()
			.lease(Duration.ofSeconds(1))
			.heartbeatInterval(Duration.ofMillis(200))
			.build(), new CountingListener());

		long id = fixture.queue().enqueue("long-booking", new Greeting("Ada", 1));

		awaitState(id, JobState.succeeded);
		assertThat(runs).hasValue(1);
		assertThat(fixture.job(id).result()).isEqualTo("1");
	}
}

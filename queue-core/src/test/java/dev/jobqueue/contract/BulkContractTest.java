package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.JobQuery;
import dev.jobqueue.JobState;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.StatedJobs;
import dev.jobqueue.support.TestDatabase;

/** What the operator's bulk retry, cancel and delete promise, on every database. */
public abstract class BulkContractTest {

	private QueueFixture fixture;

	private StatedJobs jobs;

	protected abstract TestDatabase database();

	@BeforeEach
	void setUp() {
		fixture = new QueueFixture(database());
		jobs = new StatedJobs(fixture.store());
	}

	@AfterEach
	void tearDown() {
		fixture.close();
	}

	@Test
	void retryAllRetriesTheDeadJobsOfTheSelectionOnlyAndSaysHowMany() {
		long deadBuild = jobs.dead("reports", "build", "boom");
		long otherDeadBuild = jobs.dead("reports", "build", "boom");
		long deadSend = jobs.dead("mail", "send", "boom");
		long succeeded = jobs.succeeded("reports", "build");
		long ready = jobs.ready("reports", "build");

		assertThat(fixture.queue().retryAll(JobQuery.all().kind("build"))).isEqualTo(2);

		assertThat(states(deadBuild, otherDeadBuild, deadSend, succeeded, ready))
			.containsExactly(JobState.ready, JobState.ready, JobState.dead, JobState.succeeded, JobState.ready);
		assertThat(fixture.job(deadBuild).attempt()).isZero();
		assertThat(fixture.queue().retryAll(List.of(deadSend, succeeded, 999_999L))).isEqualTo(1);
		assertThat(fixture.state(deadSend)).isEqualTo(JobState.ready);
	}

	@Test
	void retryAllGoesThroughMoreJobsThanABatchHolds() {
		List<NewJob> batch = IntStream.range(0, 1_205)
			.mapToObj(i -> new NewJob("default", "many", "{}", 1, 5, null, Duration.ZERO, 1, null))
			.toList();
		fixture.store().enqueues().enqueueAll(batch);
		List<ClaimedJob> claimed = fixture.store().claims().claim("default", Map.of("many", 1), 1_205, "bulk", Duration.ofMinutes(5),
				false);
		claimed.forEach(job -> assertThat(fixture.store().outcomes().fail(job.lease(), "boom")).isTrue());

		assertThat(fixture.queue().retryAll(JobQuery.all().queue("default").states(JobState.dead))).isEqualTo(1_205);
		assertThat(fixture.queue().countByQueueAndState()).isEqualTo(Map.of("default", Map.of(JobState.ready, 1_205L)));
	}

	@Test
	void aDeadJobWhoseUniqueKeyIsHeldStaysDeadAndOfTwoDeadJobsOfOneKeyOnlyTheNewestIsRetried() {
		long older = jobs.dead("default", "unique", "boom", "u-1");
		long newer = jobs.dead("default", "unique", "boom", "u-1");
		long blockedByHolder = jobs.dead("default", "unique", "boom", "u-2");
		long holder = fixture.store().enqueues().enqueue(new NewJob("default", "unique", "{}", 1, 5, null, Duration.ZERO, 1, "u-2")).id();

		assertThat(fixture.queue().retryAll(JobQuery.all().kind("unique"))).isEqualTo(1);

		assertThat(states(older, newer, blockedByHolder, holder))
			.containsExactly(JobState.dead, JobState.ready, JobState.dead, JobState.ready);
	}

	@Test
	void aRetriedJobOfAConcurrencyKeyWaitsForTheSlotThatAnotherJobHolds() {
		fixture.declareExternal("keyed");
		long first = fixture.queue().enqueue("keyed", "a", EnqueueOptions.defaults().concurrencyKey("k").maxAttempts(1));
		await().atMost(Duration.ofMinutes(1)).until(() -> fixture.state(first) == JobState.ready);
		ClaimedJob claimed = fixture.store().claims().claim("default", Map.of("keyed", 1), 1, "bulk", Duration.ofMinutes(5),
				false).get(0);
		assertThat(fixture.store().outcomes().fail(claimed.lease(), "boom")).isTrue();
		long holder = fixture.queue().enqueue("keyed", "b", EnqueueOptions.defaults().concurrencyKey("k"));
		await().atMost(Duration.ofMinutes(1)).until(() -> fixture.state(holder) == JobState.ready);

		assertThat(fixture.queue().retryAll(List.of(first))).isEqualTo(1);
		assertThat(fixture.state(first)).isEqualTo(JobState.blocked);

		assertThat(fixture.queue().cancel(holder)).isTrue();
		await().atMost(Duration.ofMinutes(1)).until(() -> fixture.state(first) == JobState.ready);
	}

	@Test
	void cancelAllCancelsWhatCanBeCancelledAndFencesOffTheWorkerOfARunningJob() {
		long readyMail = jobs.ready("mail", "send");
		long readyReport = jobs.ready("reports", "build");
		ClaimedJob runningMail = jobs.running("mail", "send");
		long succeeded = jobs.succeeded("mail", "send");

		assertThat(fixture.queue().cancelAll(JobQuery.all().queue("mail").states(JobState.ready))).isEqualTo(1);
		assertThat(states(readyMail, readyReport, runningMail.id())).containsExactly(JobState.cancelled, JobState.ready,
				JobState.running);

		assertThat(fixture.queue().cancelAll(List.of(runningMail.id(), succeeded, readyMail))).isEqualTo(1);
		assertThat(fixture.state(runningMail.id())).isEqualTo(JobState.cancelled);
		assertThat(fixture.store().outcomes().complete(runningMail.lease(), null)).as("the worker's outcome is fenced off").isFalse();
		assertThat(fixture.store().claims().cancelled(List.of(runningMail.lease()))).containsExactly(runningMail.lease());
		assertThat(fixture.state(succeeded)).isEqualTo(JobState.succeeded);
	}

	@Test
	void deleteFinishedDeletesFinishedJobsOfTheSelectionAndNeverAnUnfinishedOne() {
		long succeeded = jobs.succeeded("mail", "send");
		long dead = jobs.dead("mail", "send", "boom");
		long cancelled = jobs.cancelled("mail", "send");
		long otherKind = jobs.succeeded("mail", "other");
		long ready = jobs.ready("mail", "send");
		long running = jobs.running("mail", "send").id();

		assertThat(fixture.queue().deleteFinished(JobQuery.all().kind("send"))).isEqualTo(3);

		assertThat(List.of(succeeded, dead, cancelled)).allSatisfy(id -> assertThat(fixture.queue().find(id)).isEmpty());
		assertThat(states(otherKind, ready, running)).containsExactly(JobState.succeeded, JobState.ready, JobState.running);
		assertThat(fixture.queue().deleteFinished(JobQuery.all().states(JobState.ready, JobState.running))).isZero();
	}

	@Test
	void deleteFinishedLeavesADeadJobThatHoldsItsKeysSlotUntilItIsCancelled() {
		long holder = jobs.deadHoldingKey("default", "step", "ledger-1");
		long next = jobs.blockedOnKey("default", "step", "ledger-1");
		long dead = jobs.dead("default", "step", "boom");

		assertThat(fixture.queue().deleteFinished(JobQuery.all().kind("step"))).isEqualTo(1);
		assertThat(fixture.store().writes().deleteFinished(List.of(holder))).isEmpty();
		fixture.store().promotions().promote(Set.of("ledger-1"));

		assertThat(fixture.queue().find(dead)).isEmpty();
		assertThat(states(holder, next)).containsExactly(JobState.dead, JobState.blocked);

		assertThat(fixture.queue().cancel(holder)).isTrue();
		assertThat(fixture.queue().deleteFinished(JobQuery.all().kind("step"))).isEqualTo(1);
		assertThat(fixture.queue().find(holder)).isEmpty();
	}

	@Test
	void inTheCallersTransactionEveryBatchJoinsItAndGoesWithItsRollback() {
		long dead = jobs.dead("default", "joined", "boom");
		long succeeded = jobs.succeeded("default", "joined");

		Long changed = fixture.transactions().execute(status -> {
			long n = fixture.queue().retryAll(JobQuery.all().kind("joined"))
					+ fixture.queue().deleteFinished(JobQuery.all().kind("joined"));
			status.setRollbackOnly();
			return n;
		});

		assertThat(changed).isEqualTo(2);
		assertThat(states(dead, succeeded)).containsExactly(JobState.dead, JobState.succeeded);
	}

	@Test
	void badInputIsRefusedAndChangesNothing() {
		long dead = jobs.dead("default", "bad", "boom");
		List<Long> withNull = new ArrayList<>(Arrays.asList(dead, null));

		assertThatIllegalArgumentException().isThrownBy(() -> fixture.queue().retryAll((JobQuery) null))
			.withMessageStartingWith("query must not be null");
		assertThatIllegalArgumentException().isThrownBy(() -> fixture.queue().retryAll(withNull))
			.withMessage("ids must not be null nor hold null");
		assertThatIllegalArgumentException().isThrownBy(() -> fixture.queue().cancelAll((List<Long>) null))
			.withMessage("ids must not be null nor hold null");
		assertThatIllegalArgumentException().isThrownBy(() -> fixture.queue().deleteFinished(null))
			.withMessageStartingWith("query must not be null");
		assertThat(fixture.state(dead)).isEqualTo(JobState.dead);
	}

	private List<JobState> states(long... ids) {
		return Arrays.stream(ids).mapToObj(fixture::state).toList();
	}
}

package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.Job;
import dev.jobqueue.JobState;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.Completion;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.MaintenanceStore;
import dev.jobqueue.store.Lease;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.StatedJobs;
import dev.jobqueue.support.TestDatabase;

/** What the store's claim and lease statements promise, on every database. */
public abstract class ClaimContractTest {

	private static final Duration LEASE = Duration.ofSeconds(30);

	/** The kinds the claims ask for: every job here is a greeting. */
	private static final Map<String, Integer> KINDS = Map.of("greet", 1);

	private QueueFixture fixture;

	private JobStore store;

	protected abstract TestDatabase database();

	@BeforeEach
	void setUp() {
		fixture = new QueueFixture(database());
		store = fixture.store();
	}

	@AfterEach
	void tearDown() {
		fixture.close();
	}

	private long enqueue(String name, EnqueueOptions options) {
		return fixture.queue().enqueue("greet", new Greeting(name, 1), options);
	}

	@Test
	void enqueueClaimCompleteEndsSucceededWithTheResult() {
		long id = enqueue("Ada", EnqueueOptions.defaults());

		List<ClaimedJob> claimed = store.claims().claim("default", KINDS, 10, "worker-1", LEASE, false);

		assertThat(claimed).singleElement().satisfies(job -> {
			assertThat(job.id()).isEqualTo(id);
			assertThat(job.attempt()).isEqualTo(1);
			assertThat(job.payload()).contains("Ada");
		});
		Job running = fixture.job(id);
		assertThat(running.state()).isEqualTo(JobState.running);
		assertThat(running.leaseOwner()).isEqualTo("worker-1");
		assertThat(running.leaseExpiresAt()).isAfter(running.startedAt());

		assertThat(store.outcomes().complete(claimed.get(0).lease(), "{\"sent\":true}")).isTrue();
		Job done = fixture.job(id);
		assertThat(done.state()).isEqualTo(JobState.succeeded);
		assertThat(done.result()).contains("\"sent\"");
		assertThat(done.finishedAt()).isNotNull();
		assertThat(done.leaseOwner()).isNull();
	}

	@Test
	void claimsInPriorityThenRunAtThenIdOrder() {
		Instant past = Instant.now().minusSeconds(60);
		long late = enqueue("late", EnqueueOptions.defaults().runAt(past.plusSeconds(10)));
		long urgent = enqueue("urgent", EnqueueOptions.defaults().priority(0).runAt(past.plusSeconds(20)));
		long early = enqueue("early", EnqueueOptions.defaults().runAt(past));
		long sameTimeFirst = enqueue("same-1", EnqueueOptions.defaults().runAt(past.plusSeconds(30)));
		long sameTimeSecond = enqueue("same-2", EnqueueOptions.defaults().runAt(past.plusSeconds(30)));

		List<Long> oneByOne = java.util.stream.Stream.generate(() -> store.claims().claim("default", KINDS, 1, "w", LEASE,
				false))
			.limit(5)
			.map(jobs -> jobs.get(0).id())
			.toList();

		assertThat(oneByOne).containsExactly(urgent, early, late, sameTimeFirst, sameTimeSecond);
	}

	@Test
	void aBatchClaimReturnsJobsInClaimOrderAndNoMoreThanAsked() {
		long low = enqueue("low", EnqueueOptions.defaults().priority(9));
		long high = enqueue("high", EnqueueOptions.defaults().priority(0));
		enqueue("other", EnqueueOptions.defaults().priority(9));

		List<ClaimedJob> claimed = store.claims().claim("default", KINDS, 2, "w", LEASE, false);

		assertThat(claimed).extracting(ClaimedJob::id).containsExactly(high, low);
	}

	@Test
	void aBatchClaimTakesEachPrioritysEarliestDueJobsAndPassesOverItsFutureOnes() {
		Instant past = Instant.now().minusSeconds(60);
		enqueue("five-future", EnqueueOptions.defaults().delay(Duration.ofHours(1)));
		long fiveLate = enqueue("five-late", EnqueueOptions.defaults().runAt(past.plusSeconds(10)));
		long fiveEarly = enqueue("five-early", EnqueueOptions.defaults().runAt(past));
		enqueue("six-future", EnqueueOptions.defaults().priority(6).delay(Duration.ofHours(1)));
		long sixLate = enqueue("six-late", EnqueueOptions.defaults().priority(6).runAt(past.plusSeconds(10)));
		long sixEarly = enqueue("six-early", EnqueueOptions.defaults().priority(6).runAt(past));
		enqueue("seven", EnqueueOptions.defaults().priority(7).runAt(past));

		assertThat(store.claims().claim("default", KINDS, 4, "w", LEASE, false)).extracting(ClaimedJob::id)
			.containsExactly(fiveEarly, fiveLate, sixEarly, sixLate);
	}

	@Test
	void aDelayedJobIsNotClaimedBeforeItIsDue() {
		enqueue("later", EnqueueOptions.defaults().delay(Duration.ofHours(1)));
		long due = enqueue("due", EnqueueOptions.defaults().runAt(Instant.now().minusSeconds(1)));

		assertThat(store.claims().claim("default", KINDS, 10, "w", LEASE,
				false)).extracting(ClaimedJob::id).containsExactly(due);
	}

	@Test
	void claimsOnlyFromTheQueueAsked() {
		enqueue("mail", EnqueueOptions.defaults().queue("mail"));

		assertThat(store.claims().claim("default", KINDS, 10, "w", LEASE, false)).isEmpty();
		assertThat(store.claims().claim("mail", KINDS, 10, "w", LEASE, false)).hasSize(1);
	}

	@Test
	void aRetriedJobWaitsForItsBackoffAndKeepsTheError() {
		long id = enqueue("Ada", EnqueueOptions.defaults());
		ClaimedJob job = store.claims().claim("default", KINDS, 1, "w", LEASE, false).get(0);

		assertThat(store.outcomes().retryLater(job.lease(), Duration.ofHours(1), "boom")).isTrue();

		Job retried = fixture.job(id);
		assertThat(retried.state()).isEqualTo(JobState.ready);
		assertThat(retried.lastError()).isEqualTo("boom");
		assertThat(retried.runAt()).isAfter(Instant.now().plus(Duration.ofMinutes(59)));
		assertThat(store.claims().claim("default", KINDS, 1, "w", LEASE, false)).isEmpty();
	}

	@Test
	void aStaleWorkersWritesChangeNothingOnceTheJobWasReapedAndReclaimed() {
		long id = enqueue("Ada", EnqueueOptions.defaults());
		ClaimedJob stale = store.claims().claim("default", KINDS, 1, "stale", LEASE, false).get(0);
		store.claims().confirm("stale", List.of(stale.lease()));
		store.claims().heartbeat("stale", List.of(stale.lease()), Duration.ofMillis(1));
		awaitLeaseExpiry();
		assertThat(store.maintenance().reapExpired(10)).isEqualTo(1);
		ClaimedJob fresh = store.claims().claim("default", KINDS, 1, "fresh", LEASE, false).get(0);
		assertThat(fresh.lease().token()).isGreaterThan(stale.lease().token());

		assertThat(store.outcomes().complete(stale.lease(), null)).isFalse();
		assertThat(store.outcomes().fail(stale.lease(), "stale failure")).isFalse();
		assertThat(store.outcomes().retryLater(stale.lease(), Duration.ZERO, "stale retry")).isFalse();
		assertThat(store.outcomes().release(stale.lease())).isFalse();
		assertThat(store.outcomes().handBack(stale.lease())).isFalse();
		assertThat(store.claims().confirmStarts("stale", List.of(stale.lease()))).isEmpty();
		assertThat(store.outcomes().completeAll(List.of(new Completion(stale.lease(), null)))).containsExactly(stale.lease());
		assertThat(store.claims().heartbeat("stale", List.of(stale.lease()), LEASE)).isEmpty();

		assertThat(store.outcomes().complete(fresh.lease(), "\"second\"")).isTrue();
		Job job = fixture.job(id);
		assertThat(job.state()).isEqualTo(JobState.succeeded);
		assertThat(job.result()).contains("second");
		assertThat(job.attempt()).isEqualTo(2);
	}

	@RepeatedTest(100)
	void aCompletionRacingTheReaperIsNeverUndone() throws Exception {
		long id = enqueue("race", EnqueueOptions.defaults());
		ClaimedJob job = store.claims().claim("default", KINDS, 1, "w", Duration.ofMillis(1), false).get(0);
		awaitLeaseExpiry();
		CyclicBarrier start = new CyclicBarrier(2);
		ExecutorService threads = Executors.newFixedThreadPool(2);
		try {
			Future<Boolean> completed = threads.submit(() -> {
				start.await();
				return store.outcomes().complete(job.lease(), "\"done\"");
			});
			Future<Integer> reaped = threads.submit(() -> {
				start.await();
				return store.maintenance().reapExpired(10);
			});

			boolean completionWon = completed.get();
			int reapedCount = reaped.get();
			JobState state = fixture.state(id);
			if (completionWon) {
				assertThat(reapedCount).isZero();
				assertThat(state).isEqualTo(JobState.succeeded);
			}
			else {
				assertThat(reapedCount).isEqualTo(1);
				assertThat(state).isEqualTo(JobState.ready);
			}
		}
		finally {
			threads.shutdownNow();
		}
	}

	@Test
	void completeAllWritesEveryHeldLeaseInOneCall() {
		enqueue("a", EnqueueOptions.defaults());
		enqueue("b", EnqueueOptions.defaults());
		List<ClaimedJob> claimed = store.claims().claim("default", KINDS, 2, "w", LEASE, false);

		Set<Lease> lost = store.outcomes().completeAll(claimed.stream().map(j -> new Completion(j.lease(), "1")).toList());

		assertThat(lost).isEmpty();
		claimed.forEach(j -> assertThat(fixture.state(j.id())).isEqualTo(JobState.succeeded));
	}

	/**
	 * Of a batch, the held leases are written and exactly the others reported lost: one whose job was reaped and
	 * is running again under a newer lease, and one whose job its newer holder has finished already.
	 */
	@Test
	void completeAllReportsExactlyTheLostLeasesOfABatchAndWritesOnlyTheHeldOnes() {
		enqueue("held", EnqueueOptions.defaults());
		enqueue("running again", EnqueueOptions.defaults());
		enqueue("finished again", EnqueueOptions.defaults());
		List<ClaimedJob> claimed = store.claims().claim("default", KINDS, 3, "stale", LEASE, false);
		ClaimedJob held = claimed.get(0);
		store.claims().heartbeat("stale", List.of(claimed.get(1).lease(), claimed.get(2).lease()), Duration.ofMillis(1));
		awaitLeaseExpiry();
		assertThat(store.maintenance().reapExpired(10)).isEqualTo(2);
		List<ClaimedJob> fresh = store.claims().claim("default", KINDS, 2, "fresh", LEASE, false);
		ClaimedJob finishedAgain = fresh.stream().filter(j -> j.id() == claimed.get(2).id()).findFirst().orElseThrow();
		assertThat(store.outcomes().complete(finishedAgain.lease(), "\"fresh\"")).isTrue();

		Set<Lease> lost = store.outcomes().completeAll(claimed.stream().map(j -> new Completion(j.lease(), "\"stale\"")).toList());

		assertThat(lost).containsExactlyInAnyOrder(claimed.get(1).lease(), claimed.get(2).lease());
		assertThat(fixture.job(held.id()).result()).contains("stale");
		assertThat(fixture.state(claimed.get(1).id())).isEqualTo(JobState.running);
		assertThat(fixture.job(claimed.get(2).id()).result()).contains("fresh");
	}

	@Test
	void theUnfinishedCountsAreTheReadyAndRunningJobsOfEachQueueAndNothingFinished() {
		store.enqueues().enqueueAll(List.of(newJob("default"), newJob("default"), newJob("default"), newJob("mail")));
		List<ClaimedJob> claimed = store.claims().claim("default", KINDS, 2, "w", LEASE, false);
		assertThat(store.outcomes().complete(claimed.get(0).lease(), null)).isTrue();

		assertThat(store.telemetry().countUnfinishedByQueue()).isEqualTo(Map.of(
				"default", Map.of(JobState.ready, 1L, JobState.running, 1L),
				"mail", Map.of(JobState.ready, 1L)));
		assertThat(store.telemetry().countByQueueAndState()).isEqualTo(Map.of(
				"default", Map.of(JobState.ready, 1L, JobState.running, 1L, JobState.succeeded, 1L),
				"mail", Map.of(JobState.ready, 1L)));
	}

	@Test
	void aBatchHoldingTwoLeasesOfOneJobWritesTheCurrentOneAndEachResultToItsOwnJob() {
		long first = enqueue("a", EnqueueOptions.defaults());
		long second = enqueue("b", EnqueueOptions.defaults());
		ClaimedJob stale = store.claims().claim("default", KINDS, 1, "w", Duration.ofMillis(1), false).get(0);
		awaitLeaseExpiry();
		assertThat(store.maintenance().reapExpired(10)).isEqualTo(1);
		List<ClaimedJob> current = store.claims().claim("default", KINDS, 2, "w", LEASE, false);
		ClaimedJob again = current.stream().filter(j -> j.id() == stale.id()).findFirst().orElseThrow();
		ClaimedJob other = current.stream().filter(j -> j.id() != stale.id()).findFirst().orElseThrow();

		assertThat(store.claims().heartbeat("w", List.of(other.lease(), again.lease(), stale.lease()), LEASE))
			.containsExactlyInAnyOrder(other.lease(), again.lease());
		// The stale lease first: a write that picked each job's result by id alone took the first one listed.
		Set<Lease> lost = store.outcomes().completeAll(List.of(new Completion(stale.lease(), "\"stale\""),
				new Completion(other.lease(), "\"other\""), new Completion(again.lease(), "\"again\"")));

		assertThat(lost).containsExactly(stale.lease());
		assertThat(fixture.job(stale.id()).result()).contains("again");
		assertThat(fixture.job(other.id()).result()).contains("other");
		assertThat(List.of(first, second)).containsExactlyInAnyOrder(stale.id(), other.id());
	}

	@Test
	void aBatchedCompletionAndAHeartbeatOverTheSameRowsInOppositeOrdersDoNotDeadlock() throws Exception {
		ExecutorService threads = Executors.newFixedThreadPool(2);
		try {
			for (int round = 0; round < 20; round++) {
				fixture.queue().enqueueAll(java.util.stream.IntStream.range(0, 200)
					.mapToObj(i -> new dev.jobqueue.JobQueue.NewJobRequest("greet", new Greeting("n", i)))
					.toList());
				List<ClaimedJob> claimed = store.claims().claim("default", KINDS, 200, "w", LEASE, false);
				List<Completion> completions = claimed.stream().map(j -> new Completion(j.lease(), null)).toList();
				List<Lease> descending = claimed.stream().map(ClaimedJob::lease)
					.sorted(java.util.Comparator.comparingLong(Lease::jobId).reversed())
					.toList();
				CyclicBarrier together = new CyclicBarrier(2);
				Future<Set<Lease>> completing = threads.submit(() -> {
					together.await();
					return store.outcomes().completeAll(completions);
				});
				Future<Set<Lease>> heartbeating = threads.submit(() -> {
					together.await();
					return store.claims().heartbeat("w", descending, LEASE);
				});

				assertThat(completing.get()).isEmpty();
				heartbeating.get();
			}
		}
		finally {
			threads.shutdownNow();
		}
	}

	@Test
	void theHeartbeatExtendsHeldLeasesOnly() {
		enqueue("a", EnqueueOptions.defaults());
		enqueue("b", EnqueueOptions.defaults());
		List<ClaimedJob> claimed = store.claims().claim("default", KINDS, 2, "w", Duration.ofSeconds(2), false);
		Instant before = fixture.job(claimed.get(0).id()).leaseExpiresAt();

		Set<Lease> held = store.claims().heartbeat("w", claimed.stream().map(ClaimedJob::lease).toList(), Duration.ofHours(1));
		assertThat(store.claims().heartbeat("someone-else", List.of(claimed.get(0).lease()), LEASE)).isEmpty();

		assertThat(held).containsExactlyInAnyOrderElementsOf(claimed.stream().map(ClaimedJob::lease).toList());
		assertThat(fixture.job(claimed.get(0).id()).leaseExpiresAt()).isAfter(before.plus(Duration.ofMinutes(59)));
	}

	@Test
	void theReaperLeavesLiveLeasesAloneAndKillsJobsWithNoAttemptsLeft() {
		long live = enqueue("live", EnqueueOptions.defaults());
		long spent = enqueue("spent", EnqueueOptions.defaults().maxAttempts(1));
		store.claims().claim("default", KINDS, 1, "w", LEASE, false);
		ClaimedJob dying = store.claims().claim("default", KINDS, 1, "w", LEASE, false).get(0);
		store.claims().confirm("w", List.of(dying.lease()));
		store.claims().heartbeat("w", List.of(dying.lease()), Duration.ofMillis(1));
		awaitLeaseExpiry();

		assertThat(store.maintenance().reapExpired(10)).isEqualTo(1);

		assertThat(fixture.state(live)).isEqualTo(JobState.running);
		Job dead = fixture.job(spent);
		assertThat(dead.state()).isEqualTo(JobState.dead);
		assertThat(dead.lastError()).contains("expired");
	}

	@Test
	void aClaimItsWorkerNeverConfirmedGetsItsAttemptBackWhenReaped() {
		long id = enqueue("lost answer", EnqueueOptions.defaults().maxAttempts(1));
		store.claims().claim("default", KINDS, 1, "w", Duration.ofMillis(1), false);
		awaitLeaseExpiry();

		assertThat(store.maintenance().reapExpired(10)).isEqualTo(1);

		Job job = fixture.job(id);
		assertThat(job.state()).isEqualTo(JobState.ready);
		assertThat(job.attempt()).isZero();
		assertThat(job.lastError()).contains("before its worker confirmed the claim");
		assertThat(store.claims().claim("default", KINDS, 1, "w", LEASE, false)).singleElement()
			.satisfies(again -> assertThat(again.attempt()).isEqualTo(1));
	}

	@Test
	void aClaimConfirmedByItsUpdateKeepsItsAttemptWhenReaped() {
		long id = enqueue("started at once", EnqueueOptions.defaults().maxAttempts(1));
		assertThat(store.claims().claim("default", KINDS, 1, "w", Duration.ofMillis(1), true)).singleElement()
			.satisfies(job -> assertThat(job.attempt()).isEqualTo(1));
		awaitLeaseExpiry();

		assertThat(store.maintenance().reapExpired(10)).isEqualTo(1);

		Job job = fixture.job(id);
		assertThat(job.state()).isEqualTo(JobState.dead);
		assertThat(job.attempt()).isEqualTo(1);
		assertThat(job.lastError()).contains("worker stopped or lost the database");
	}

	/**
	 * A confirming claim whose answer was lost: its jobs are running and confirmed under a lease no worker holds. The
	 * take-back unconfirms them and no other: not those its owner holds, nor another queue's, nor another owner's.
	 */
	@Test
	void takingBackConfirmationsUnconfirmsTheOwnersRunningJobsOfTheQueueButThoseItHolds() {
		long held = enqueue("held", EnqueueOptions.defaults().maxAttempts(1));
		long lost = enqueue("lost", EnqueueOptions.defaults().maxAttempts(1));
		long otherQueue = enqueue("other queue", EnqueueOptions.defaults().maxAttempts(1).queue("other"));
		long otherOwner = enqueue("other owner", EnqueueOptions.defaults().maxAttempts(1));
		Duration moment = Duration.ofMillis(1);
		ClaimedJob kept = store.claims().claim("default", KINDS, 1, "w", moment, true).get(0);
		store.claims().claim("default", KINDS, 1, "w", moment, true);
		store.claims().claim("other", KINDS, 1, "w", moment, true);
		store.claims().claim("default", KINDS, 1, "someone-else", moment, true);

		store.claims().takeBackConfirmations("w", "default", List.of(kept.lease()));

		awaitLeaseExpiry();
		assertThat(store.maintenance().reapExpired(10)).isEqualTo(4);
		assertThat(fixture.job(lost).state()).isEqualTo(JobState.ready);
		assertThat(fixture.job(lost).attempt()).isZero();
		assertThat(List.of(held, otherQueue, otherOwner)).allSatisfy(id -> assertThat(fixture.state(id))
			.isEqualTo(JobState.dead));
	}

	@Test
	void takingBackConfirmationsWithNothingHeldUnconfirmsEveryRunningJobOfTheOwnersQueue() {
		long id = enqueue("lost", EnqueueOptions.defaults().maxAttempts(1));
		store.claims().claim("default", KINDS, 1, "w", Duration.ofMillis(1), true);

		store.claims().takeBackConfirmations("w", "default", List.of());

		awaitLeaseExpiry();
		assertThat(store.maintenance().reapExpired(10)).isEqualTo(1);
		assertThat(fixture.job(id).state()).isEqualTo(JobState.ready);
		assertThat(fixture.job(id).attempt()).isZero();
	}

	@Test
	void aHeartbeatConfirmsNoClaimSoAJobThatWaitedInLineGetsItsAttemptBackWhenReaped() {
		long id = enqueue("waited in line", EnqueueOptions.defaults().maxAttempts(1));
		ClaimedJob claimed = store.claims().claim("default", KINDS, 1, "w", LEASE, false).get(0);
		assertThat(store.claims().heartbeat("w", List.of(claimed.lease()), Duration.ofMillis(1))).hasSize(1);
		awaitLeaseExpiry();

		assertThat(store.maintenance().reapExpired(10)).isEqualTo(1);

		Job job = fixture.job(id);
		assertThat(job.state()).isEqualTo(JobState.ready);
		assertThat(job.attempt()).isZero();
	}

	@Test
	void aConfirmedStartStaysCountedWhenReapedAndItsLeaseIsNotExtended() {
		long id = enqueue("worker died", EnqueueOptions.defaults().maxAttempts(1));
		ClaimedJob claimed = store.claims().claim("default", KINDS, 1, "w", Duration.ofMillis(1), false).get(0);
		Instant expiry = fixture.job(id).leaseExpiresAt();

		assertThat(store.claims().confirmStarts("w", List.of(claimed.lease()))).containsExactly(claimed.lease());

		assertThat(fixture.job(id).leaseExpiresAt()).isEqualTo(expiry);
		awaitLeaseExpiry();
		assertThat(store.maintenance().reapExpired(10)).isEqualTo(1);
		Job job = fixture.job(id);
		assertThat(job.state()).isEqualTo(JobState.dead);
		assertThat(job.attempt()).isEqualTo(1);
	}

	@Test
	void theStartsOfPausedQueuesAndKindsAndOfLostLeasesAreNotConfirmed() {
		fixture.declareExternal("greet");
		fixture.declareExternal("welcome");
		Map<String, Integer> kinds = Map.of("greet", 1, "welcome", 1);
		for (String queue : List.of("open", "paused")) {
			for (String kind : kinds.keySet()) {
				fixture.queue().enqueue(kind, new Greeting(queue, 1), EnqueueOptions.defaults().queue(queue));
			}
		}
		List<ClaimedJob> open = store.claims().claim("open", kinds, 2, "w", LEASE, false);
		List<ClaimedJob> paused = store.claims().claim("paused", kinds, 2, "w", LEASE, false);
		ClaimedJob openGreeting = open.stream().filter(job -> job.kind().equals("greet")).findFirst().orElseThrow();
		ClaimedJob openWelcome = open.stream().filter(job -> job.kind().equals("welcome")).findFirst().orElseThrow();
		fixture.queue().pause("paused");
		fixture.queue().pauseKind("welcome");
		List<Lease> all = Stream.concat(open.stream(), paused.stream()).map(ClaimedJob::lease).toList();

		Set<Lease> confirmed = store.claims().confirmStarts("w", all);
		Set<Lease> byOthers = store.claims().confirmStarts("someone-else", all);
		Set<Lease> older = store.claims().confirmStarts("w",
				List.of(new Lease(openGreeting.id(), openGreeting.lease().token() - 1)));

		assertThat(confirmed).containsExactly(openGreeting.lease());
		assertThat(byOthers).isEmpty();
		assertThat(older).isEmpty();
		assertThat(all).allSatisfy(lease -> assertThat(fixture.state(lease.jobId())).isEqualTo(JobState.running));
		fixture.queue().resumeKind("welcome");
		assertThat(store.claims().confirmStarts("w", List.of(openWelcome.lease()))).containsExactly(openWelcome.lease());
	}

	@Test
	void aHandedBackJobIsReadyAtOnceWithItsAttemptGivenBackAndKeepsItsRelease() {
		long id = enqueue("Ada", EnqueueOptions.defaults());
		ClaimedJob job = store.claims().claim("default", KINDS, 1, "w", LEASE, false).get(0);

		assertThat(store.outcomes().handBack(job.lease())).isTrue();
		assertThat(store.outcomes().handBack(job.lease())).isFalse();

		assertThat(fixture.job(id).state()).isEqualTo(JobState.ready);
		assertThat(fixture.job(id).attempt()).isZero();
		ClaimedJob again = store.claims().claim("default", KINDS, 1, "other", LEASE, false).get(0);
		assertThat(store.outcomes().handBack(again.lease())).isTrue();
		ClaimedJob third = store.claims().claim("default", KINDS, 1, "other", LEASE, false).get(0);
		assertThat(store.outcomes().release(third.lease())).isTrue();
		assertThat(fixture.job(id).attempt()).isZero();
	}

	@Test
	void aClaimConfirmedByItsOwnerStaysCountedWhenReapedAndItsLeaseIsNotExtended() {
		long id = enqueue("worker died", EnqueueOptions.defaults().maxAttempts(1));
		ClaimedJob claimed = store.claims().claim("default", KINDS, 1, "w", Duration.ofMillis(1), false).get(0);
		Instant expiry = fixture.job(id).leaseExpiresAt();

		store.claims().confirm("w", List.of(claimed.lease()));

		assertThat(fixture.job(id).leaseExpiresAt()).isEqualTo(expiry);
		awaitLeaseExpiry();
		assertThat(store.maintenance().reapExpired(10)).isEqualTo(1);
		Job job = fixture.job(id);
		assertThat(job.state()).isEqualTo(JobState.dead);
		assertThat(job.attempt()).isEqualTo(1);
		assertThat(job.lastError()).contains("worker stopped or lost the database");
	}

	@Test
	void aConfirmationByAnotherOwnerOrOfAnOlderLeaseConfirmsNothing() {
		long id = enqueue("lost answer", EnqueueOptions.defaults().maxAttempts(1));
		ClaimedJob claimed = store.claims().claim("default", KINDS, 1, "w", Duration.ofMillis(1), false).get(0);

		store.claims().confirm("someone-else", List.of(claimed.lease()));
		store.claims().confirm("w", List.of(new Lease(id, claimed.lease().token() - 1)));

		awaitLeaseExpiry();
		assertThat(store.maintenance().reapExpired(10)).isEqualTo(1);
		assertThat(fixture.job(id).attempt()).isZero();
		assertThat(fixture.job(id).lastError()).contains("before its worker confirmed the claim");
	}

	@Test
	void theReaperGivesBackUnconfirmedAttemptsOnlySoOftenThenCountsThem() {
		long id = enqueue("kills its worker at once", EnqueueOptions.defaults().maxAttempts(1));
		for (int reap = 1; reap <= MaintenanceStore.MAX_UNCONFIRMED_REAPS; reap++) {
			store.claims().claim("default", KINDS, 1, "w", Duration.ofMillis(1), false);
			awaitLeaseExpiry();
			assertThat(store.maintenance().reapExpired(10)).isEqualTo(1);
			assertThat(fixture.state(id)).as("after unconfirmed reap %d", reap).isEqualTo(JobState.ready);
		}
		store.claims().claim("default", KINDS, 1, "w", Duration.ofMillis(1), false);
		awaitLeaseExpiry();

		assertThat(store.maintenance().reapExpired(10)).isEqualTo(1);

		assertThat(fixture.state(id)).isEqualTo(JobState.dead);
	}

	@Test
	void aReleasedJobIsReadyAtOnceWithItsAttemptGivenBack() {
		long id = enqueue("Ada", EnqueueOptions.defaults());
		ClaimedJob job = store.claims().claim("default", KINDS, 1, "w", LEASE, false).get(0);

		assertThat(store.outcomes().release(job.lease())).isTrue();

		assertThat(fixture.job(id).attempt()).isZero();
		assertThat(store.claims().claim("default", KINDS, 1, "other", LEASE,
				false)).extracting(ClaimedJob::id).containsExactly(id);
	}

	@Test
	void aJobIsReleasedWithItsAttemptGivenBackOnlyOnce() {
		long id = enqueue("Ada", EnqueueOptions.defaults());
		assertThat(store.outcomes().release(store.claims().claim("default", KINDS, 1, "w", LEASE,
				false).get(0).lease())).isTrue();
		ClaimedJob again = store.claims().claim("default", KINDS, 1, "w", LEASE, false).get(0);

		assertThat(store.outcomes().release(again.lease())).isFalse();

		Job job = fixture.job(id);
		assertThat(job.state()).isEqualTo(JobState.running);
		assertThat(job.attempt()).isEqualTo(1);
	}

	@Test
	void aDeadJobCanBeRetriedByAnOperator() {
		long id = enqueue("Ada", EnqueueOptions.defaults());
		store.outcomes().fail(store.claims().claim("default", KINDS, 1, "w", LEASE, false).get(0).lease(), "broken");

		assertThat(fixture.queue().retry(id)).isTrue();

		assertThat(fixture.job(id).state()).isEqualTo(JobState.ready);
		assertThat(fixture.job(id).attempt()).isZero();
		assertThat(fixture.queue().retry(id)).isFalse();
	}

	@Test
	void thePrunerDeletesOnlyFinishedJobsPastTheirRetention() {
		long succeeded = enqueue("done", EnqueueOptions.defaults());
		store.outcomes().complete(store.claims().claim("default", KINDS, 1, "w", LEASE, false).get(0).lease(), null);
		long dead = enqueue("dead", EnqueueOptions.defaults());
		store.outcomes().fail(store.claims().claim("default", KINDS, 1, "w", LEASE, false).get(0).lease(), "x");
		long ready = enqueue("ready", EnqueueOptions.defaults().delay(Duration.ofHours(1)));
		long running = enqueue("running", EnqueueOptions.defaults());
		store.claims().claim("default", KINDS, 1, "w", LEASE, false);

		assertThat(store.maintenance().prune(Duration.ofHours(1), Duration.ofHours(1), 100)).isZero();
		assertThat(store.maintenance().prune(Duration.ZERO, Duration.ofDays(14), 100)).isEqualTo(1);

		assertThat(fixture.queue().find(succeeded)).isEmpty();
		assertThat(fixture.queue().find(dead)).isPresent();
		assertThat(fixture.queue().find(ready)).isPresent();
		assertThat(fixture.queue().find(running)).isPresent();
	}

	@Test
	void thePrunerKeepsADeadJobThatHoldsItsKeysSlotUntilItIsCancelled() {
		StatedJobs jobs = new StatedJobs(store);
		long holder = jobs.deadHoldingKey("default", "greet", "ledger-1");
		long next = jobs.blockedOnKey("default", "greet", "ledger-1");
		long deadWithoutHold = enqueue("dead", EnqueueOptions.defaults());
		store.outcomes().fail(store.claims().claim("default", KINDS, 1, "w", LEASE, false).get(0).lease(), "x");

		assertThat(store.maintenance().prune(Duration.ZERO, Duration.ZERO, 100)).isEqualTo(1);
		store.promotions().promote(Set.of("ledger-1"));

		assertThat(fixture.queue().find(deadWithoutHold)).isEmpty();
		assertThat(fixture.state(holder)).isEqualTo(JobState.dead);
		assertThat(fixture.state(next)).as("the group stays blocked behind its failed step").isEqualTo(JobState.blocked);

		assertThat(fixture.queue().cancel(holder)).isTrue();
		assertThat(store.maintenance().prune(Duration.ZERO, Duration.ZERO, 100)).isEqualTo(1);
		assertThat(fixture.queue().find(holder)).isEmpty();
	}

	private static void awaitLeaseExpiry() {
		try {
			Thread.sleep(20);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static NewJob newJob(String queue) {
		return new NewJob(queue, "greet", "{}", 1, 5, null, Duration.ZERO, 3, null);
	}
}

package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.jobqueue.Job;
import dev.jobqueue.JobState;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.Lease;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.Transition;
import dev.jobqueue.support.TestDatabase;
import dev.jobqueue.support.TransitionTable;
import dev.jobqueue.support.TransitionTable.Case;
import dev.jobqueue.support.TransitionTable.Outcome;

/**
 * Every database carries out the state machine's decisions: each case of the {@link TransitionTable} is set up
 * through the store's own statements, its event applied through the store, and the job read back.
 */
public abstract class TransitionContractTest {

	private static final String QUEUE = "transitions";

	private static final String KIND = "step";

	private static final String OWNER = "transition-test";

	private static final Duration SHORT_LEASE = Duration.ofMillis(1);

	protected abstract TestDatabase database();

	static Stream<Case> cases() {
		return TransitionTable.CASES.stream();
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("cases")
	void theDatabaseCarriesOutTheTransitionAsTheStateMachineDecidesIt(Case row) throws InterruptedException {
		database().reset();
		JobStore store = database().store();
		String key = row.options().keyed() ? "key-" + row.event() + "-" + row.from() : null;
		Subject subject = setUp(store, row, key);
		int errorsBefore = job(store, subject.id()).errors().size();

		boolean changed = apply(store, row, subject, key);

		Job after = job(store, subject.id());
		Outcome expected = row.expected();
		if (expected == TransitionTable.UNCHANGED) {
			assertThat(changed).isFalse();
			assertThat(after.state()).isEqualTo(row.from());
			assertThat(after.attempt()).isEqualTo(row.attemptBefore());
			return;
		}
		assertThat(changed).isTrue();
		assertThat(after.state()).isEqualTo(expected.state());
		assertThat(after.attempt()).isEqualTo(expected.attempt());
		assertThat(after.errors()).hasSize(errorsBefore + (expected.recordsError() ? 1 : 0));
		assertThat(key != null && holdsSlot(store, key)).isEqualTo(expected.holdsSlot());
	}

	/** A job in the case's state, made by the store's statements, and its lease when it is running. */
	private Subject setUp(JobStore store, Case row, String key) {
		NewJob.KeySlot slot = key == null ? null
				: new NewJob.KeySlot(key, 1, row.options().deadHolds(), row.options().rated() ? Duration.ofHours(1) : null);
		NewJob job = new NewJob(QUEUE, KIND, "{}", 1, 0, null, Duration.ZERO, row.options().maxAttempts(), null, slot);
		if (row.from() == JobState.waiting) {
			long dependency = store.enqueues().enqueue(new NewJob(QUEUE, "dependency", "{}", 1, 0, null, Duration.ZERO, 1,
					null)).id();
			return new Subject(store.dependencies().enqueue(job.withDependencies(
					new NewJob.Dependencies(List.of(dependency), true, false))).id(), null);
		}
		long id = store.enqueues().enqueue(job).id();
		if (row.from() == JobState.blocked) {
			return new Subject(id, null);
		}
		promote(store, key);
		if (row.from() == JobState.ready) {
			return new Subject(id, null);
		}
		if (row.from() == JobState.cancelled && !row.options().ranWhenCancelled()) {
			assertThat(store.writes().cancel(id)).isTrue();
			return new Subject(id, null);
		}
		boolean expires = row.event() == Transition.REAP || row.options().leaseExpired();
		Duration lease = expires ? SHORT_LEASE : Duration.ofMinutes(5);
		Lease held = claim(store, id, lease);
		if (row.options().givenBack()) {
			assertThat(store.outcomes().release(held)).isTrue();
			promote(store, key);
			held = claim(store, id, lease);
		}
		if (row.options().confirmed()) {
			store.claims().confirm(OWNER, List.of(held));
		}
		switch (row.from()) {
			case running -> {
			}
			case succeeded -> assertThat(store.outcomes().complete(held, null)).isTrue();
			case dead -> assertThat(store.outcomes().fail(held, "failed before the case")).isTrue();
			case cancelled -> assertThat(store.writes().cancel(id)).isTrue();
			default -> throw new IllegalArgumentException("no set-up for " + row.from());
		}
		return new Subject(id, held);
	}

	private static boolean apply(JobStore store, Case row, Subject subject, String key) throws InterruptedException {
		return switch (row.event()) {
			case CLAIM -> !store.claims().claim(QUEUE, Map.of(KIND, 1), 1, OWNER, Duration.ofMinutes(5),
					false).isEmpty();
			case SUCCEED -> store.outcomes().complete(subject.lease(), null);
			case RETRY, RETRY_AFTER -> store.outcomes().retryLater(subject.lease(), Duration.ofMinutes(1), "failed in the case");
			case FAIL -> store.outcomes().fail(subject.lease(), "failed in the case");
			case CANCEL_BY_HANDLER -> store.outcomes().cancelByHandler(subject.lease(), "cancelled in the case");
			case SNOOZE -> store.outcomes().snooze(subject.lease(), Duration.ofMinutes(1));
			case RELEASE -> store.outcomes().release(subject.lease());
			case HAND_BACK -> store.outcomes().handBack(subject.lease());
			case REAP -> reap(store);
			case CANCEL -> store.writes().cancel(subject.id());
			case END_CANCELLED -> row.options().leaseExpired() ? endExpiredCancels(store)
					: store.outcomes().endCancelled(subject.lease() != null ? subject.lease() : new Lease(subject.id(), 0));
			case PROMOTE -> !store.promotions().promote(Set.of(key)).isEmpty();
			case RETRY_DEAD -> store.writes().retryDead(subject.id());
			case PROMOTE_WAITING -> store.dependencies().promote(subject.id());
			case CANCEL_WAITING -> store.dependencies().cancel(subject.id(), "a dependency failed in the case");
		};
	}

	/** Reaps once the case's short lease has run out by the database's clock. */
	private static boolean reap(JobStore store) throws InterruptedException {
		Thread.sleep(50);
		return store.maintenance().reapExpired(10) == 1;
	}

	/** Ends the cancelled jobs whose leases ran out, once the case's short lease has by the database's clock. */
	private static boolean endExpiredCancels(JobStore store) throws InterruptedException {
		Thread.sleep(50);
		return store.maintenance().endExpiredCancels(10) == 1;
	}

	/**
	 * Whether the key's one job holds its slot, as the promotion counts holders: asked with a second job of the key
	 * blocked behind it, since a key's slots are read through its first waiting job.
	 */
	private static boolean holdsSlot(JobStore store, String key) {
		long probe = store.enqueues().enqueue(new NewJob(QUEUE, "probe", "{}", 1, 0, null, Duration.ofHours(1), 1, null,
				new NewJob.KeySlot(key, 1, false))).id();
		return store.explain().keySlots(key, probe).orElseThrow().holderCount() == 1;
	}

	private static void promote(JobStore store, String key) {
		if (key != null) {
			store.promotions().promote(Set.of(key));
		}
	}

	private static Lease claim(JobStore store, long id, Duration lease) {
		List<ClaimedJob> claimed = store.claims().claim(QUEUE, Map.of(KIND, 1), 1, OWNER, lease, false);
		assertThat(claimed).extracting(ClaimedJob::id).containsExactly(id);
		return claimed.get(0).lease();
	}

	private static Job job(JobStore store, long id) {
		return store.reads().find(id).orElseThrow();
	}

	private record Subject(long id, Lease lease) {
	}
}

package dev.jobqueue.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.jobqueue.JobState;
import dev.jobqueue.support.TransitionTable;
import dev.jobqueue.support.TransitionTable.Case;

/** The state machine decides every case of the transition table as the table says. */
class TransitionTest {

	static Stream<Case> cases() {
		return TransitionTable.CASES.stream();
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("cases")
	void decidesAsTheTableSays(Case row) {
		var decision = row.event().decide(row.facts());

		if (row.expected() == TransitionTable.UNCHANGED) {
			assertThat(decision).isEmpty();
			return;
		}
		assertThat(decision).hasValueSatisfying(d -> {
			assertThat(d.state()).isEqualTo(row.expected().state());
			assertThat(d.attempt()).isEqualTo(row.expected().attempt());
			assertThat(d.recordsError()).isEqualTo(row.expected().recordsError());
			assertThat(factsAfter(row, d).holdsSlot()).isEqualTo(row.expected().holdsSlot());
		});
	}

	@Test
	void aReapGivesAnUnconfirmedAttemptBackOnlyUpToItsLimit() {
		var spent = new Transition.Facts(JobState.running, false, false, false, 3, 3, false, false,
				Transition.MAX_UNCONFIRMED_REAPS, true);

		assertThat(Transition.REAP.decide(spent)).hasValueSatisfying(d -> {
			assertThat(d.state()).isEqualTo(JobState.dead);
			assertThat(d.attempt()).isEqualTo(3);
		});
	}

	@Test
	void aFailureIsARetryOnlyWhileAttemptsAreLeftAndTheErrorAllowsOne() {
		assertThat(Transition.ofFailure(true, 1, 3)).isEqualTo(Transition.RETRY);
		assertThat(Transition.ofFailure(true, 3, 3)).isEqualTo(Transition.FAIL);
		assertThat(Transition.ofFailure(false, 1, 3)).isEqualTo(Transition.FAIL);
	}

	@Test
	void aBatchsCallbackOnFinishIsDueOnceTheBatchFinishedAndOnFailureAtItsFirstDeadJobElseCancelled() {
		assertThat(Transition.ofBatchCallback(BatchStore.Role.on_finish, false, true)).isEmpty();
		assertThat(Transition.ofBatchCallback(BatchStore.Role.on_finish, true, false))
			.contains(Transition.PROMOTE_WAITING);
		assertThat(Transition.ofBatchCallback(BatchStore.Role.on_finish, true, true))
			.contains(Transition.PROMOTE_WAITING);
		assertThat(Transition.ofBatchCallback(BatchStore.Role.on_failure, false, false)).isEmpty();
		assertThat(Transition.ofBatchCallback(BatchStore.Role.on_failure, false, true))
			.contains(Transition.PROMOTE_WAITING);
		assertThat(Transition.ofBatchCallback(BatchStore.Role.on_failure, true, true))
			.contains(Transition.PROMOTE_WAITING);
		assertThat(Transition.ofBatchCallback(BatchStore.Role.on_failure, true, false))
			.contains(Transition.CANCEL_WAITING);
	}

	private static Transition.Facts factsAfter(Case row, Transition.Decision decision) {
		var before = row.facts();
		return new Transition.Facts(decision.state(), before.keyed(), before.rated(), before.deadHolds(),
				decision.attempt(), before.maxAttempts(), before.claimConfirmed(), before.attemptGivenBack(),
				before.unconfirmedReaps(), decision.leaseHeld());
	}
}

package dev.jobqueue.support;

import static dev.jobqueue.JobState.blocked;
import static dev.jobqueue.JobState.cancelled;
import static dev.jobqueue.JobState.dead;
import static dev.jobqueue.JobState.ready;
import static dev.jobqueue.JobState.running;
import static dev.jobqueue.JobState.succeeded;
import static dev.jobqueue.JobState.waiting;
import static dev.jobqueue.store.Transition.CANCEL;
import static dev.jobqueue.store.Transition.CANCEL_BY_HANDLER;
import static dev.jobqueue.store.Transition.CANCEL_WAITING;
import static dev.jobqueue.store.Transition.CLAIM;
import static dev.jobqueue.store.Transition.END_CANCELLED;
import static dev.jobqueue.store.Transition.FAIL;
import static dev.jobqueue.store.Transition.HAND_BACK;
import static dev.jobqueue.store.Transition.PROMOTE;
import static dev.jobqueue.store.Transition.PROMOTE_WAITING;
import static dev.jobqueue.store.Transition.REAP;
import static dev.jobqueue.store.Transition.RELEASE;
import static dev.jobqueue.store.Transition.RETRY;
import static dev.jobqueue.store.Transition.RETRY_AFTER;
import static dev.jobqueue.store.Transition.RETRY_DEAD;
import static dev.jobqueue.store.Transition.SNOOZE;
import static dev.jobqueue.store.Transition.SUCCEED;

import java.util.List;

import dev.jobqueue.JobState;
import dev.jobqueue.store.Transition;

/**
 * One table of the job state machine's cases: (state, event, options) → (state, attempt, slot, error history).
 * {@code TransitionTest} runs it against {@link Transition}, {@code TransitionContractTest} through each dialect's
 * store against each database, so that what Java decides and what every database does are the same table.
 */
public final class TransitionTable {

	/** No change: the event does not apply to a job in that state. */
	public static final Outcome UNCHANGED = null;

	public static final List<Case> CASES = List.of(
			new Case(ready, CLAIM, Options.PLAIN, new Outcome(running, 1, false, false)),
			new Case(ready, CLAIM, Options.KEYED, new Outcome(running, 1, true, false)),
			new Case(running, SUCCEED, Options.KEYED, new Outcome(succeeded, 1, false, false)),
			new Case(running, RETRY, Options.PLAIN, new Outcome(ready, 1, false, true)),
			new Case(running, RETRY, Options.KEYED, new Outcome(ready, 1, true, true)),
			new Case(running, RETRY, Options.RATED, new Outcome(blocked, 1, false, true)),
			new Case(running, RETRY_AFTER, Options.RATED, new Outcome(blocked, 1, false, true)),
			new Case(running, FAIL, Options.KEYED, new Outcome(dead, 1, false, true)),
			new Case(running, FAIL, Options.DEAD_HOLDS, new Outcome(dead, 1, true, true)),
			new Case(running, CANCEL_BY_HANDLER, Options.KEYED, new Outcome(cancelled, 1, false, true)),
			new Case(running, CANCEL_BY_HANDLER, Options.DEAD_HOLDS, new Outcome(cancelled, 1, false, true)),
			new Case(cancelled, CANCEL_BY_HANDLER, Options.RAN_WHEN_CANCELLED, UNCHANGED),
			new Case(succeeded, CANCEL_BY_HANDLER, Options.PLAIN, UNCHANGED),
			new Case(running, SNOOZE, Options.KEYED, new Outcome(ready, 0, true, false)),
			new Case(running, SNOOZE, Options.RATED, new Outcome(blocked, 0, false, false)),
			new Case(running, RELEASE, Options.KEYED, new Outcome(ready, 0, true, false)),
			new Case(running, RELEASE, Options.RATED, new Outcome(blocked, 0, false, false)),
			new Case(running, RELEASE, Options.GIVEN_BACK, UNCHANGED),
			new Case(running, HAND_BACK, Options.PLAIN, new Outcome(ready, 0, false, false)),
			new Case(running, HAND_BACK, Options.KEYED, new Outcome(ready, 0, true, false)),
			new Case(running, HAND_BACK, Options.RATED, new Outcome(blocked, 0, false, false)),
			new Case(running, HAND_BACK, Options.CONFIRMED, new Outcome(ready, 0, true, false)),
			new Case(running, HAND_BACK, Options.GIVEN_BACK, new Outcome(ready, 0, true, false)),
			new Case(succeeded, HAND_BACK, Options.PLAIN, UNCHANGED),
			new Case(dead, HAND_BACK, Options.KEYED, UNCHANGED),
			new Case(running, REAP, Options.PLAIN, new Outcome(ready, 0, false, true)),
			new Case(running, REAP, Options.LAST_UNCONFIRMED, new Outcome(ready, 0, false, true)),
			new Case(running, REAP, Options.CONFIRMED, new Outcome(ready, 1, true, true)),
			new Case(running, REAP, Options.LAST_CONFIRMED, new Outcome(dead, 1, false, true)),
			new Case(running, REAP, Options.RATED_CONFIRMED, new Outcome(blocked, 1, false, true)),
			new Case(blocked, CANCEL, Options.KEYED, new Outcome(cancelled, 0, false, false)),
			new Case(ready, CANCEL, Options.KEYED, new Outcome(cancelled, 0, false, false)),
			new Case(running, CANCEL, Options.KEYED, new Outcome(cancelled, 1, true, false)),
			new Case(running, CANCEL, Options.PLAIN, new Outcome(cancelled, 1, false, false)),
			new Case(dead, CANCEL, Options.DEAD_HOLDS, new Outcome(cancelled, 1, false, false)),
			new Case(dead, CANCEL, Options.KEYED, UNCHANGED),
			new Case(succeeded, CANCEL, Options.PLAIN, UNCHANGED),
			new Case(blocked, PROMOTE, Options.KEYED, new Outcome(ready, 0, true, false)),
			new Case(waiting, CANCEL, Options.KEYED, new Outcome(cancelled, 0, false, false)),
			new Case(waiting, PROMOTE_WAITING, Options.PLAIN, new Outcome(ready, 0, false, false)),
			new Case(waiting, PROMOTE_WAITING, Options.KEYED, new Outcome(blocked, 0, false, false)),
			new Case(ready, PROMOTE_WAITING, Options.PLAIN, UNCHANGED),
			new Case(waiting, CANCEL_WAITING, Options.KEYED, new Outcome(cancelled, 0, false, false)),
			new Case(ready, CANCEL_WAITING, Options.PLAIN, UNCHANGED),
			new Case(running, CANCEL_WAITING, Options.PLAIN, UNCHANGED),
			new Case(dead, RETRY_DEAD, Options.PLAIN, new Outcome(ready, 0, false, false)),
			new Case(dead, RETRY_DEAD, Options.DEAD_HOLDS, new Outcome(blocked, 0, false, false)),
			new Case(succeeded, RETRY_DEAD, Options.PLAIN, UNCHANGED),
			new Case(cancelled, RETRY_DEAD, Options.PLAIN, UNCHANGED),
			new Case(cancelled, END_CANCELLED, Options.RAN_WHEN_CANCELLED, new Outcome(cancelled, 1, false, false)),
			new Case(cancelled, END_CANCELLED, Options.EXPIRED_WHEN_CANCELLED, new Outcome(cancelled, 1, false, false)),
			new Case(cancelled, END_CANCELLED, Options.KEYED, UNCHANGED));

	private TransitionTable() {
	}

	/**
	 * How the job was set up before the event.
	 *
	 * @param keyed with a concurrency key (limit 1)
	 * @param rated the key with a rate
	 * @param deadHolds the key's dead jobs hold their slots
	 * @param confirmed a running job's claim confirmed by its worker
	 * @param givenBack a running job whose attempt a release gave back before
	 * @param ranWhenCancelled a cancelled job that was running when it was cancelled, its handler not yet seen to exit
	 * @param leaseExpired such a job whose worker's lease then expired (its node died): the reaper ends it
	 */
	public record Options(boolean keyed, boolean rated, boolean deadHolds, boolean confirmed, boolean givenBack,
			int maxAttempts, boolean ranWhenCancelled, boolean leaseExpired) {

		static final Options PLAIN = new Options(false, false, false, false, false, 3);

		static final Options KEYED = new Options(true, false, false, false, false, 3);

		static final Options RATED = new Options(true, true, false, false, false, 3);

		static final Options DEAD_HOLDS = new Options(true, false, true, false, false, 3);

		static final Options GIVEN_BACK = new Options(true, false, false, false, true, 3);

		static final Options CONFIRMED = new Options(true, false, false, true, false, 3);

		static final Options RATED_CONFIRMED = new Options(true, true, false, true, false, 3);

		static final Options LAST_CONFIRMED = new Options(true, false, false, true, false, 1);

		static final Options LAST_UNCONFIRMED = new Options(false, false, false, false, false, 1);

		static final Options RAN_WHEN_CANCELLED = new Options(true, false, false, true, false, 3, true, false);

		static final Options EXPIRED_WHEN_CANCELLED = new Options(true, false, false, true, false, 3, true, true);

		Options(boolean keyed, boolean rated, boolean deadHolds, boolean confirmed, boolean givenBack, int maxAttempts) {
			this(keyed, rated, deadHolds, confirmed, givenBack, maxAttempts, false, false);
		}

		@Override
		public String toString() {
			return (keyed ? rated ? "rated key" : deadHolds ? "key, dead holds" : "key" : "no key")
					+ (confirmed ? ", confirmed" : "") + (givenBack ? ", given back before" : "")
					+ (ranWhenCancelled ? ", cancelled while running" : "") + (leaseExpired ? ", lease expired" : "")
					+ ", max " + maxAttempts;
		}
	}

	/** A job's state after an event, its attempt, whether it holds its key's slot, whether its history grew. */
	public record Outcome(JobState state, int attempt, boolean holdsSlot, boolean recordsError) {
	}

	public record Case(JobState from, Transition event, Options options, Outcome expected) {

		/** The attempt a job set up in {@code from} has: one once claimed, none before. */
		public int attemptBefore() {
			return from == waiting || from == ready || from == blocked || (from == cancelled && !options.ranWhenCancelled()) ? 0 : 1;
		}

		/** The facts {@link Transition} decides on for the job set up by this case. */
		public Transition.Facts facts() {
			return new Transition.Facts(from, options.keyed(), options.rated(), options.deadHolds(), attemptBefore(),
					options.maxAttempts(), options.confirmed(), options.givenBack(), 0,
					from == running || options.ranWhenCancelled());
		}

		@Override
		public String toString() {
			return from + " --" + event + "--> " + (expected == null ? "unchanged" : expected.state()) + " ("
					+ options + ")";
		}
	}
}

package dev.jobqueue.runtime;

import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Supplier;

import dev.jobqueue.HandlerOptions;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.PauseScope;

/**
 * Pauses and resumes queues and kinds for {@link JdbcJobQueue}. Every name is checked before any SQL, so a
 * refused pause writes nothing and leaves the caller's transaction usable. A pause of a queue unknown here
 * is refused as the likely typo it is: a pause of "mial" that succeeded would leave "mail" running while its
 * operator believes it stopped. A resume is never refused for that: resuming nothing changes nothing.
 */
final class QueuePauses {

	private final JobStore store;

	private final HandlerRegistry handlers;

	private final Set<String> workedQueues;

	private final Consumer<String> wakeAfterCommit;

	/**
	 * @param workedQueues the queues this node works
	 * @param wakeAfterCommit wakes this node's poller of a queue once the caller's transaction commits
	 */
	QueuePauses(JobStore store, HandlerRegistry handlers, Set<String> workedQueues,
			Consumer<String> wakeAfterCommit) {
		this.store = store;
		this.handlers = handlers;
		this.workedQueues = workedQueues;
		this.wakeAfterCommit = wakeAfterCommit;
	}

	boolean pause(String queue) {
		requireKnownQueue(queueName(queue));
		return store.pauses().pause(PauseScope.queue, queue);
	}

	boolean resume(String queue) {
		boolean resumed = store.pauses().resume(PauseScope.queue, queueName(queue));
		if (resumed) {
			wakeAfterCommit.accept(queue);
		}
		return resumed;
	}

	boolean pauseKind(String kind) {
		String checked = kindName(kind);
		require(handlers.accepts(checked), () -> "kind '" + kind + "' is unknown: no handler here serves it (kinds: "
				+ String.join(", ", handlers.acceptedKinds()) + "); declare kinds that other applications handle as "
				+ "external kinds to pause them here");
		return store.pauses().pause(PauseScope.kind, checked);
	}

	/** Jobs of the kind in the queue of its handler here are the ones this node's poller can start at once. */
	boolean resumeKind(String kind) {
		boolean resumed = store.pauses().resume(PauseScope.kind, kindName(kind));
		if (resumed) {
			handlers.handlerFor(kind).ifPresent(handler -> wakeAfterCommit.accept(handler.queue()));
		}
		return resumed;
	}

	Map<String, Instant> paused(PauseScope scope) {
		return store.pauses().paused(scope);
	}

	/**
	 * Known here: worked by this node, named by a handler here, the default queue, or known to the database,
	 * paused already or holding ready or running jobs. The database is asked last, and only for a name this
	 * node does not know, since counting reads the ready and running entries of every queue.
	 */
	private void requireKnownQueue(String queue) {
		Set<String> known = new TreeSet<>(workedQueues);
		known.add(RuntimeSettings.DEFAULT_QUEUE);
		handlers.all().forEach(handler -> known.add(handler.queue()));
		if (known.contains(queue) || store.pauses().paused(PauseScope.queue).containsKey(queue)
				|| store.telemetry().countUnfinishedByQueue().containsKey(queue)) {
			return;
		}
		throw new IllegalArgumentException("queue '" + queue + "' is unknown: this node does not work it, no handler "
				+ "here names it and the database holds no ready or running job of it (queues known here: "
				+ String.join(", ", known) + "); nothing was paused");
	}

	/** The one rule for queue names, applied where it is public: a queue option's check. */
	private static String queueName(String queue) {
		return HandlerOptions.defaults().queue(queue).queue();
	}

	private static String kindName(String kind) {
		require(kind != null && !kind.isBlank(), () -> "kind must not be blank");
		require(kind.indexOf('\u0000') < 0, () -> "kind must not hold the character U+0000");
		return kind;
	}

	private static void require(boolean condition, Supplier<String> problem) {
		if (!condition) {
			throw new IllegalArgumentException(problem.get());
		}
	}
}

package dev.jobqueue.store;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/** The reads that explain why a job waits ({@code JobQueue.explain}), each through the index holding its rows. */
public interface ExplainReads {

	/** The database's clock now: the one every stored time is on. */
	Instant now();

	/**
	 * The slots of concurrency key {@code key} as a promotion would count them, and how many of its blocked jobs
	 * wait before job {@code id}; empty when the key has no blocked job (its first waiting job gives the limit).
	 */
	Optional<KeySlots> keySlots(String key, long id);

	/**
	 * Whether job {@code id} holds a slot of its concurrency key ({@link Transition.Facts#holdsSlot}): for a dead
	 * job, that it keeps its key's next jobs waiting, and is kept past its retention, until it is retried or
	 * cancelled.
	 */
	boolean holdsSlot(long id);

	/**
	 * How many due ready jobs of job {@code id}'s queue come before it in claim order (priority, run-at, id),
	 * counting up to {@code cap}: what a claim of its queue takes first.
	 */
	long readyAhead(long id, int cap);

	/** How many jobs of {@code queue} each lease owner (node name) is running. */
	Map<String, Integer> runningByOwner(String queue);
}

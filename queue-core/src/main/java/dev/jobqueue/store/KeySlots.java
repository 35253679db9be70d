package dev.jobqueue.store;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Who holds the slots of a concurrency key and what its rate allows, as the promotion would count them
 * ({@link ExplainReads#keySlots}): for explaining why a blocked job waits.
 *
 * @param limit the key's slots: its first waiting job's limit
 * @param rate the period of its rate, or null when it has none
 * @param holders the ids of the first {@link #MAX_HOLDERS} slot holders (ready, running, and dead ones that hold
 *        their slot), by id
 * @param holderCount how many jobs hold a slot
 * @param waitingBefore how many blocked jobs of the key were enqueued before the one asked about
 * @param recentStarts how many jobs of the key, not holding a slot, started within the rate's period
 * @param oldestRecentStart the earliest of those starts, or null
 */
public record KeySlots(int limit, Duration rate, List<Long> holders, long holderCount, long waitingBefore,
		long recentStarts, Instant oldestRecentStart) {

	/** How many holders are named. */
	public static final int MAX_HOLDERS = 10;

	public KeySlots {
		holders = List.copyOf(holders);
	}

	/** The same counts with the holders named: read in a statement of their own, after the counts. */
	public KeySlots withHolders(List<Long> ids) {
		return new KeySlots(limit, rate, ids, holderCount, waitingBefore, recentStarts, oldestRecentStart);
	}
}

package dev.jobqueue;

import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One running worker node as the node registry holds it ({@link JobQueue#nodes()}): a runtime that records
 * itself when it starts, is seen again at every heartbeat, and removes itself when it stops.
 *
 * @param name the runtime's owner name, as jobs' {@link Job#leaseOwner()} shows it
 * @param host the host the runtime runs on
 * @param version the jobqueue library version it runs
 * @param queues the queues it works, each with its concurrency (threads)
 * @param kinds the kinds it has handlers for, in name order: it claims these only
 * @param startedAt when it recorded itself, on the database's clock
 * @param lastSeenAt when it was last seen (its last heartbeat), on the database's clock
 */
public record Node(String name, String host, String version, Map<String, Integer> queues, List<String> kinds,
		Instant startedAt, Instant lastSeenAt) {

	public Node {
		queues = Collections.unmodifiableMap(new TreeMap<>(queues));
		kinds = List.copyOf(kinds);
	}

	/** Whether it claims jobs of {@code kind} in {@code queue}: it works the queue and has the kind's handler. */
	public boolean serves(String queue, String kind) {
		return queues.containsKey(queue) && kinds.contains(kind);
	}
}

package dev.jobqueue.runtime;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.jobqueue.store.NodeEntry;
import dev.jobqueue.store.NodeStore;

/**
 * This runtime's row in the node registry: written at its start, seen again at every heartbeat (one update of
 * one row, by the heartbeat's own pass rather than a thread of its own), removed at its stop. A row not seen for
 * {@link #STALE_AFTER_HEARTBEATS} heartbeat intervals is stale: readers leave it out and the maintenance node
 * deletes it. A runtime that finds its row deleted (it paused longer than that) writes it again.
 */
final class NodeRegistry {

	/** Heartbeat intervals without a sighting after which a node is stale: the job lease, with the defaults. */
	static final int STALE_AFTER_HEARTBEATS = 3;

	private static final Logger log = LoggerFactory.getLogger(NodeRegistry.class);

	private final NodeStore store;

	private final String owner;

	/** Guarded by this: the queues' sizes at the start, then after each resize. */
	private Map<String, Integer> queues;

	private final HandlerRegistry handlers;

	private final Duration staleAfter;

	/** Guarded by this, like the flag: written at each start, when every handler is known. */
	private NodeEntry entry;

	/** Guarded by this: a heartbeat's pass must not write the row again once a stop removed it. */
	private boolean registered;

	NodeRegistry(NodeStore store, String owner, Map<String, Integer> queues, HandlerRegistry handlers,
			Duration heartbeatInterval) {
		this.store = store;
		this.owner = owner;
		this.queues = queues;
		this.handlers = handlers;
		this.staleAfter = heartbeatInterval.multipliedBy(STALE_AFTER_HEARTBEATS);
	}

	/** Records this node with the kinds of its handlers, which may be registered after the runtime was built. */
	synchronized void register() {
		entry = new NodeEntry(owner, host(), LibraryVersion.get(), queues,
				List.copyOf(handlers.servedVersions().keySet()));
		store.registerNode(entry, staleAfter);
		registered = true;
	}

	/** Records the queues' new sizes at once, when registered: explain counts a queue's threads from them. */
	synchronized void resized(Map<String, Integer> queues) {
		this.queues = queues;
		if (registered) {
			register();
		}
	}

	/**
	 * Marks this node seen; run by each heartbeat pass, after its leases. A failure is logged, not thrown: the
	 * heartbeat's health is its leases', and a node not seen for long only reads as stale.
	 */
	synchronized void runOnce() {
		try {
			if (registered && !store.touchNode(owner, staleAfter)) {
				log.info("jobqueue runtime {} was missing from the node registry (not seen for {} ms); recorded again",
						owner, staleAfter.toMillis());
				store.registerNode(entry, staleAfter);
			}
		}
		catch (RuntimeException ex) {
			log.warn("Could not mark jobqueue runtime {} seen in the node registry; it reads as stale after {} ms "
					+ "without a sighting", owner, staleAfter.toMillis(), ex);
		}
	}

	/** Removes this node at its stop; a failure only leaves the row to go stale. */
	synchronized void deregister() {
		registered = false;
		try {
			store.removeNode(owner);
		}
		catch (RuntimeException ex) {
			log.warn("Could not remove jobqueue runtime {} from the node registry; it is left out once stale, "
					+ "after {} ms", owner, staleAfter.toMillis(), ex);
		}
	}

	/** The host part of the JVM's name ({@code pid@host}): no name lookup, which can hang on a bad resolver. */
	private static String host() {
		String jvm = ManagementFactory.getRuntimeMXBean().getName();
		return jvm.substring(jvm.indexOf('@') + 1);
	}
}

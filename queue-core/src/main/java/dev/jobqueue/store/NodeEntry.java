package dev.jobqueue.store;

import java.util.List;
import java.util.Map;

/**
 * What a runtime writes of itself into the node registry ({@link NodeStore#registerNode}); the times are the
 * database's.
 *
 * @param queues the queues it works, each with its concurrency
 * @param kinds the kinds it has handlers for
 */
public record NodeEntry(String name, String host, String version, Map<String, Integer> queues, List<String> kinds) {

	public NodeEntry {
		queues = Map.copyOf(queues);
		kinds = List.copyOf(kinds);
	}
}

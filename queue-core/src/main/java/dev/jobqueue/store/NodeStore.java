package dev.jobqueue.store;

import java.time.Duration;
import java.util.List;

import dev.jobqueue.Node;

/**
 * The node registry: which nodes run, what they serve, and when each was last seen, by the database's clock; and
 * the limits of the kinds they serve, which outlive them.
 */
public interface NodeStore {

	/**
	 * Records a node in the node registry, or writes its row again (a node whose row was deleted as stale comes
	 * back): seen now, stale after {@code staleAfter} unless {@link #touchNode seen} again, by the database's clock.
	 */
	void registerNode(NodeEntry node, Duration staleAfter);

	/**
	 * Marks node {@code name} seen now, stale after {@code staleAfter}: one update of its row. False when it has
	 * no row (deleted as stale, or never written): the caller then registers it again.
	 */
	boolean touchNode(String name, Duration staleAfter);

	/** Removes node {@code name} from the registry: its clean stop. */
	void removeNode(String name);

	/** The registry's nodes that are not stale, in name order. */
	List<Node> liveNodes();

	/** Deletes the registry's stale nodes; run by the maintenance node. Returns how many. */
	int deleteStaleNodes();

	/**
	 * Writes the limits of the kinds a node serves, each replacing the kind's earlier declaration, whoever made it;
	 * declared now by the database's clock ({@link KindDeclaration#declaredAt} is not read).
	 */
	void declareKinds(List<KindDeclaration> kinds);

	/** Every kind's declaration, in kind order: a row per kind ever served. */
	List<KindDeclaration> declaredKinds();
}

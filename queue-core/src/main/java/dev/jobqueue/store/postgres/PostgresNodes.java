package dev.jobqueue.store.postgres;

import java.time.Duration;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.Node;
import dev.jobqueue.store.NodeEntry;
import dev.jobqueue.store.NodeJson;
import dev.jobqueue.store.NodeStore;

/**
 * The node registry's statements on PostgreSQL ({@code jobqueue_node}, V24): each one statement on the primary key
 * or, for the readers and the maintenance node's delete, over a table of one row per node. Times are the
 * database's, so a node is stale by the same clock for every reader.
 */
final class PostgresNodes implements NodeStore {

	private final JdbcClient jdbc;

	PostgresNodes(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public void registerNode(NodeEntry node, Duration staleAfter) {
		// A node that comes back after its row was deleted as stale writes it again, with a new start.
		jdbc.sql("""
				INSERT INTO jobqueue_node (name, host, version, queues, kinds, started_at, last_seen_at, expires_at)
				VALUES (:name, :host, :version, CAST(:queues AS jsonb), CAST(:kinds AS jsonb), now(), now(),
				        now() + :staleMillis * interval '1 millisecond')
				ON CONFLICT (name) DO UPDATE SET host = excluded.host, version = excluded.version, queues = excluded.queues,
				    kinds = excluded.kinds, last_seen_at = excluded.last_seen_at, expires_at = excluded.expires_at""")
			.param("name", node.name())
			.param("host", node.host())
			.param("version", node.version())
			.param("queues", NodeJson.queues(node.queues()))
			.param("kinds", NodeJson.kinds(node.kinds()))
			.param("staleMillis", staleAfter.toMillis())
			.update();
	}

	@Override
	public boolean touchNode(String name, Duration staleAfter) {
		return jdbc.sql("""
				UPDATE jobqueue_node SET last_seen_at = now(), expires_at = now() + :staleMillis * interval '1 millisecond'
				WHERE name = :name""")
			.param("name", name)
			.param("staleMillis", staleAfter.toMillis())
			.update() == 1;
	}

	@Override
	public void removeNode(String name) {
		jdbc.sql("DELETE FROM jobqueue_node WHERE name = :name").param("name", name).update();
	}

	@Override
	public List<Node> liveNodes() {
		return jdbc.sql("""
				SELECT name, host, version, queues, kinds, started_at, last_seen_at FROM jobqueue_node
				WHERE expires_at > now() ORDER BY name""")
			.query((rs, row) -> new Node(rs.getString("name"), rs.getString("host"), rs.getString("version"),
					NodeJson.queues(rs.getString("queues")), NodeJson.kinds(rs.getString("kinds")),
					PostgresRows.instant(rs, "started_at"), PostgresRows.instant(rs, "last_seen_at")))
			.list();
	}

	@Override
	public int deleteStaleNodes() {
		return jdbc.sql("DELETE FROM jobqueue_node WHERE expires_at <= now()").update();
	}
}

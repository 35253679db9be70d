package dev.jobqueue.store.mysql;

import java.time.Duration;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.Node;
import dev.jobqueue.store.KindDeclaration;
import dev.jobqueue.store.NodeEntry;
import dev.jobqueue.store.NodeJson;
import dev.jobqueue.store.NodeStore;
import dev.jobqueue.store.mysql.support.MysqlValues;

/**
 * The node registry's statements on MySQL ({@code jobqueue_node}), as on PostgreSQL ({@code PostgresNodes}): each
 * write one statement on the primary key, the times the database's.
 */
final class MysqlNodes implements NodeStore {

	private final JdbcClient jdbc;

	MysqlNodes(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/** A node that comes back keeps the start time of its row, as on the other databases. */
	@Override
	public void registerNode(NodeEntry node, Duration staleAfter) {
		jdbc.sql("""
				INSERT INTO jobqueue_node (name, host, version, queues, kinds, started_at, last_seen_at, expires_at)
				VALUES (:name, :host, :version, :queues, :kinds, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6),
				        UTC_TIMESTAMP(6) + INTERVAL :staleMicros MICROSECOND)
				ON DUPLICATE KEY UPDATE host = VALUES(host), version = VALUES(version), queues = VALUES(queues),
				    kinds = VALUES(kinds), last_seen_at = VALUES(last_seen_at), expires_at = VALUES(expires_at)""")
			.param("name", node.name())
			.param("host", node.host())
			.param("version", node.version())
			.param("queues", NodeJson.queues(node.queues()))
			.param("kinds", NodeJson.kinds(node.kinds()))
			.param("staleMicros", MysqlValues.micros(staleAfter))
			.update();
	}

	@Override
	public boolean touchNode(String name, Duration staleAfter) {
		return jdbc.sql("""
				UPDATE jobqueue_node SET last_seen_at = UTC_TIMESTAMP(6),
				    expires_at = UTC_TIMESTAMP(6) + INTERVAL :staleMicros MICROSECOND
				WHERE name = :name""")
			.param("name", name)
			.param("staleMicros", MysqlValues.micros(staleAfter))
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
				WHERE expires_at > UTC_TIMESTAMP(6) ORDER BY name""")
			.query((rs, row) -> new Node(rs.getString("name"), rs.getString("host"), rs.getString("version"),
					NodeJson.queues(rs.getString("queues")), NodeJson.kinds(rs.getString("kinds")),
					MysqlRows.instant(rs, "started_at"), MysqlRows.instant(rs, "last_seen_at")))
			.list();
	}

	@Override
	public int deleteStaleNodes() {
		return jdbc.sql("DELETE FROM jobqueue_node WHERE expires_at <= UTC_TIMESTAMP(6)").update();
	}

	/** A statement per kind: a node serves a handful, and declares them once, at its start. */
	@Override
	public void declareKinds(List<KindDeclaration> kinds) {
		for (KindDeclaration kind : kinds) {
			jdbc.sql("""
					INSERT INTO jobqueue_kind (kind, concurrency_key_limit, dead_job_blocks_key, cluster_concurrency,
					                           rate_starts, rate_period_millis, declared_by, declared_at)
					VALUES (:kind, :keyLimit, :deadBlocks, :clusterLimit, :rateStarts, :rateMillis, :node, UTC_TIMESTAMP(6))
					ON DUPLICATE KEY UPDATE concurrency_key_limit = VALUES(concurrency_key_limit),
					    dead_job_blocks_key = VALUES(dead_job_blocks_key), cluster_concurrency = VALUES(cluster_concurrency),
					    rate_starts = VALUES(rate_starts), rate_period_millis = VALUES(rate_period_millis),
					    declared_by = VALUES(declared_by), declared_at = VALUES(declared_at)""")
				.param("kind", kind.kind())
				.param("keyLimit", kind.concurrencyKeyLimit())
				.param("deadBlocks", kind.deadJobBlocksKey())
				.param("clusterLimit", kind.clusterConcurrency())
				.param("rateStarts", kind.rateStarts())
				.param("rateMillis", kind.rateMillis())
				.param("node", kind.declaredBy())
				.update();
		}
	}

	@Override
	public List<KindDeclaration> declaredKinds() {
		return jdbc.sql("SELECT " + KindDeclaration.COLUMNS + " FROM jobqueue_kind ORDER BY kind")
			.query((rs, row) -> KindDeclaration.read(rs, MysqlRows.instant(rs, "declared_at")))
			.list();
	}
}

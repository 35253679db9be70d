package dev.jobqueue.store.sqlite;

import java.time.Duration;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.Node;
import dev.jobqueue.store.KindDeclaration;
import dev.jobqueue.store.NodeEntry;
import dev.jobqueue.store.NodeJson;
import dev.jobqueue.store.NodeStore;
import dev.jobqueue.store.sqlite.support.SqliteStatements;

/**
 * The node registry's statements on SQLite ({@code jobqueue_node}, V24), as on PostgreSQL ({@code PostgresNodes}):
 * each write one statement under the write lock, the times the database's in epoch milliseconds.
 */
final class SqliteNodes implements NodeStore {

	private final JdbcClient jdbc;

	private final SqliteStatements statements;

	SqliteNodes(JdbcClient jdbc, SqliteStatements statements) {
		this.jdbc = jdbc;
		this.statements = statements;
	}

	@Override
	public void registerNode(NodeEntry node, Duration staleAfter) {
		statements.write("register node", () -> jdbc.sql("""
				INSERT INTO jobqueue_node (name, host, version, queues, kinds, started_at, last_seen_at, expires_at)
				VALUES (:name, :host, :version, :queues, :kinds, CAST(round(unixepoch('subsec') * 1000) AS INTEGER),
				        CAST(round(unixepoch('subsec') * 1000) AS INTEGER),
				        CAST(round(unixepoch('subsec') * 1000) AS INTEGER) + :staleMillis)
				ON CONFLICT (name) DO UPDATE SET host = excluded.host, version = excluded.version, queues = excluded.queues,
				    kinds = excluded.kinds, last_seen_at = excluded.last_seen_at, expires_at = excluded.expires_at""")
			.param("name", node.name())
			.param("host", node.host())
			.param("version", node.version())
			.param("queues", NodeJson.queues(node.queues()))
			.param("kinds", NodeJson.kinds(node.kinds()))
			.param("staleMillis", staleAfter.toMillis())
			.update());
	}

	@Override
	public boolean touchNode(String name, Duration staleAfter) {
		return statements.write("touch node", () -> jdbc.sql("""
				UPDATE jobqueue_node SET last_seen_at = CAST(round(unixepoch('subsec') * 1000) AS INTEGER),
				    expires_at = CAST(round(unixepoch('subsec') * 1000) AS INTEGER) + :staleMillis
				WHERE name = :name""")
			.param("name", name)
			.param("staleMillis", staleAfter.toMillis())
			.update()) == 1;
	}

	@Override
	public void removeNode(String name) {
		statements.write("remove node", () -> jdbc.sql("DELETE FROM jobqueue_node WHERE name = :name")
			.param("name", name)
			.update());
	}

	@Override
	public List<Node> liveNodes() {
		return statements.read("live nodes", () -> jdbc.sql("""
				SELECT name, host, version, queues, kinds, started_at, last_seen_at FROM jobqueue_node
				WHERE expires_at > CAST(round(unixepoch('subsec') * 1000) AS INTEGER) ORDER BY name""")
			.query((rs, row) -> new Node(rs.getString("name"), rs.getString("host"), rs.getString("version"),
					NodeJson.queues(rs.getString("queues")), NodeJson.kinds(rs.getString("kinds")),
					SqliteRows.instant(rs, "started_at"), SqliteRows.instant(rs, "last_seen_at")))
			.list());
	}

	@Override
	public int deleteStaleNodes() {
		return statements.write("delete stale nodes", () -> jdbc.sql("""
				DELETE FROM jobqueue_node WHERE expires_at <= CAST(round(unixepoch('subsec') * 1000) AS INTEGER)""")
			.update());
	}

	/** A statement per kind, under one hold of the write lock: a node declares a handful, once, at its start. */
	@Override
	public void declareKinds(List<KindDeclaration> kinds) {
		statements.write("declare kinds", () -> {
			for (KindDeclaration kind : kinds) {
				jdbc.sql("""
						INSERT INTO jobqueue_kind (kind, concurrency_key_limit, dead_job_blocks_key, cluster_concurrency,
						                           rate_starts, rate_period_millis, declared_by, declared_at)
						VALUES (:kind, :keyLimit, :deadBlocks, :clusterLimit, :rateStarts, :rateMillis, :node,
						        CAST(round(unixepoch('subsec') * 1000) AS INTEGER))
						ON CONFLICT (kind) DO UPDATE SET concurrency_key_limit = excluded.concurrency_key_limit,
						    dead_job_blocks_key = excluded.dead_job_blocks_key,
						    cluster_concurrency = excluded.cluster_concurrency, rate_starts = excluded.rate_starts,
						    rate_period_millis = excluded.rate_period_millis, declared_by = excluded.declared_by,
						    declared_at = excluded.declared_at""")
					.param("kind", kind.kind())
					.param("keyLimit", kind.concurrencyKeyLimit())
					.param("deadBlocks", kind.deadJobBlocksKey() ? 1 : 0)
					.param("clusterLimit", kind.clusterConcurrency())
					.param("rateStarts", kind.rateStarts())
					.param("rateMillis", kind.rateMillis())
					.param("node", kind.declaredBy())
					.update();
			}
			return kinds.size();
		});
	}

	@Override
	public List<KindDeclaration> declaredKinds() {
		return statements.read("declared kinds", () -> jdbc
			.sql("SELECT " + KindDeclaration.COLUMNS + " FROM jobqueue_kind ORDER BY kind")
			.query((rs, row) -> KindDeclaration.read(rs, SqliteRows.instant(rs, "declared_at")))
			.list());
	}
}

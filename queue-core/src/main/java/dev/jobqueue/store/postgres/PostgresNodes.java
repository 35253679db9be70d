package dev.jobqueue.store.postgres;

import java.time.Duration;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.Node;
import dev.jobqueue.store.KindDeclaration;
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

	@Override
	public void declareKinds(List<KindDeclaration> kinds) {
		jdbc.sql("""
				INSERT INTO jobqueue_kind (kind, concurrency_key_limit, dead_job_blocks_key, cluster_concurrency,
				                           rate_starts, rate_period_millis, declared_by, declared_at)
				SELECT * FROM unnest(CAST(:kinds AS text[]), CAST(:keyLimits AS integer[]), CAST(:deadBlocks AS boolean[]),
				                     CAST(:clusterLimits AS integer[]), CAST(:rateStarts AS integer[]),
				                     CAST(:rateMillis AS bigint[]), CAST(:nodes AS text[])), now()
				ON CONFLICT (kind) DO UPDATE SET concurrency_key_limit = excluded.concurrency_key_limit,
				    dead_job_blocks_key = excluded.dead_job_blocks_key, cluster_concurrency = excluded.cluster_concurrency,
				    rate_starts = excluded.rate_starts, rate_period_millis = excluded.rate_period_millis,
				    declared_by = excluded.declared_by, declared_at = excluded.declared_at""")
			.param("kinds", kinds.stream().map(KindDeclaration::kind).toArray(String[]::new))
			.param("keyLimits", kinds.stream().map(KindDeclaration::concurrencyKeyLimit).toArray(Integer[]::new))
			.param("deadBlocks", kinds.stream().map(KindDeclaration::deadJobBlocksKey).toArray(Boolean[]::new))
			.param("clusterLimits", kinds.stream().map(KindDeclaration::clusterConcurrency).toArray(Integer[]::new))
			.param("rateStarts", kinds.stream().map(KindDeclaration::rateStarts).toArray(Integer[]::new))
			.param("rateMillis", kinds.stream().map(KindDeclaration::rateMillis).toArray(Long[]::new))
			.param("nodes", kinds.stream().map(KindDeclaration::declaredBy).toArray(String[]::new))
			.update();
	}

	@Override
	public List<KindDeclaration> declaredKinds() {
		return jdbc.sql("SELECT " + KindDeclaration.COLUMNS + " FROM jobqueue_kind ORDER BY kind")
			.query((rs, row) -> KindDeclaration.read(rs, PostgresRows.instant(rs, "declared_at")))
			.list();
	}
}

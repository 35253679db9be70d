package dev.jobqueue.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A kind's limits as a node that serves it declared them ({@code jobqueue_kind}), which every enqueue of the kind
 * applies, wherever it comes from: see {@code KindLimits} in the runtime.
 *
 * @param clusterConcurrency the kind's cluster-wide limit, or 0 for none
 * @param rateStarts with a rate, at most this many starts per {@code ratePeriod} per key; else 0
 * @param ratePeriod with a rate its period, else null
 * @param declaredBy the name of the node that declared it
 * @param declaredAt when, by the database's clock; null in a declaration not yet written
 */
public record KindDeclaration(String kind, int concurrencyKeyLimit, boolean deadJobBlocksKey, int clusterConcurrency,
		int rateStarts, Duration ratePeriod, String declaredBy, Instant declaredAt) {

	/** The columns every dialect selects, in {@link #read}'s order. */
	public static final String COLUMNS = "kind, concurrency_key_limit, dead_job_blocks_key, cluster_concurrency, "
			+ "rate_starts, rate_period_millis, declared_by, declared_at";

	/** Whether the two declare the same limits, whoever declared them and when. */
	public boolean sameLimits(KindDeclaration other) {
		return concurrencyKeyLimit == other.concurrencyKeyLimit && deadJobBlocksKey == other.deadJobBlocksKey
				&& clusterConcurrency == other.clusterConcurrency && rateStarts == other.rateStarts
				&& Objects.equals(ratePeriod, other.ratePeriod);
	}

	/** The rate's period in milliseconds, or null: the column's value. */
	public Long rateMillis() {
		return ratePeriod == null ? null : ratePeriod.toMillis();
	}

	/** A row of {@link #COLUMNS}, its time read by the dialect, whose column types differ. */
	public static KindDeclaration read(ResultSet rs, Instant declaredAt) throws SQLException {
		long rateMillis = rs.getLong("rate_period_millis");
		Duration ratePeriod = rs.wasNull() ? null : Duration.ofMillis(rateMillis);
		return new KindDeclaration(rs.getString("kind"), rs.getInt("concurrency_key_limit"),
				rs.getBoolean("dead_job_blocks_key"), rs.getInt("cluster_concurrency"), rs.getInt("rate_starts"),
				ratePeriod, rs.getString("declared_by"), declaredAt);
	}
}

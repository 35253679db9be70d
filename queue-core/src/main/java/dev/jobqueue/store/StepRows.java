package dev.jobqueue.store;

import java.util.HashMap;
import java.util.Map;

import org.springframework.jdbc.core.simple.JdbcClient;

/** What every dialect's {@link StepStore#steps} reads: a job's steps by name, each with its result's JSON or null. */
public final class StepRows {

	/** The read of one job's steps where the result column is text already (MySQL, SQLite). */
	public static final String SELECT = "SELECT name, result FROM jobqueue_job_step WHERE job_id = :id";

	private StepRows() {
	}

	/**
	 * The rows of {@code select}, a dialect's read of one job's {@code name} and {@code result} (as text) bound to
	 * {@code :id}, by name. A map that holds nulls: a step without a result is recorded all the same.
	 */
	public static Map<String, String> byName(JdbcClient jdbc, String select, long jobId) {
		Map<String, String> steps = new HashMap<>();
		jdbc.sql(select).param("id", jobId).query(rs -> {
			steps.put(rs.getString(1), rs.getString(2));
		});
		return steps;
	}
}

package dev.jobqueue.store;

import java.util.HashMap;
import java.util.Map;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * What every dialect's {@link StepStore#steps} and {@link StepStore#notes} read: a job's rows of the step table by
 * name, each with its result's JSON or null. Its notes are the rows whose names start with {@link #NOTE_PREFIX}; its
 * steps and cursors are the others.
 */
public final class StepRows {

	/** What the names of a job's notes (log lines, progress) start with. */
	public static final String NOTE_PREFIX = "note:";

	private StepRows() {
	}

	/**
	 * The read of one job's steps ({@code notes} false) or notes, bound to {@code :id}, with {@code result} the
	 * dialect's result column as text.
	 */
	public static String select(String result, boolean notes) {
		return "SELECT name, " + result + " FROM jobqueue_job_step WHERE job_id = :id AND name "
				+ (notes ? "" : "NOT ") + "LIKE '" + NOTE_PREFIX + "%'";
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

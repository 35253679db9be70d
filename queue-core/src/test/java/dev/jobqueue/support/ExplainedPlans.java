package dev.jobqueue.support;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.jdbc.core.simple.JdbcClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Statements' plans as PostgreSQL ran them: {@code auto_explain} with buffers sends every statement's plan to
 * the session as a notice ({@link StatementNotices} keeps them), under the generic plan the driver settles on;
 * and counts read from a plan's text, on any database.
 */
public final class ExplainedPlans {

	/** A scan of the ready index, and the first count of buffers after it: its own. */
	private static final Pattern READY_INDEX_SCAN = Pattern.compile("Index Scan using jobqueue_job_ready_idx[^\\n]*\\n"
			+ "(?:[^\\n]*\\n)*?\\s*Buffers: shared hit=(\\d+)(?: read=(\\d+))?");

	private ExplainedPlans() {
	}

	/** Has the session explain every statement it runs from now on. */
	public static void explainEveryStatementWithItsGenericPlan(JdbcClient session) {
		session.sql("LOAD 'auto_explain'").update();
		session.sql("SET auto_explain.log_min_duration = 0").update();
		session.sql("SET auto_explain.log_analyze = on").update();
		session.sql("SET auto_explain.log_buffers = on").update();
		session.sql("SET auto_explain.log_level = notice").update();
		session.sql("SET plan_cache_mode = force_generic_plan").update();
	}

	public static void explainNoMore(JdbcClient session) {
		session.sql("SET auto_explain.log_min_duration = -1").update();
		session.sql("RESET plan_cache_mode").update();
	}

	/** The plan of the one claim among the statements explained. */
	public static String claimPlan(StatementNotices notices) {
		List<String> plans = notices.notices().stream().filter(notice -> notice.contains("lease_owner")).toList();
		assertThat(plans).hasSize(1);
		return plans.get(0);
	}

	/** The pages of the ready index that the claim's scans of it read, summed over them. */
	public static long readyIndexPagesRead(String plan) {
		long pages = 0;
		Matcher scan = READY_INDEX_SCAN.matcher(plan);
		while (scan.find()) {
			pages += Long.parseLong(scan.group(1)) + (scan.group(2) == null ? 0 : Long.parseLong(scan.group(2)));
		}
		assertThat(pages).as(plan).isPositive();
		return pages;
	}

	/** The sum of the number that {@code count}'s one group captures, over every place it matches in the plan. */
	public static long sum(Pattern count, String plan) {
		long sum = 0;
		Matcher matcher = count.matcher(plan);
		while (matcher.find()) {
			sum += Long.parseLong(matcher.group(1));
		}
		return sum;
	}
}

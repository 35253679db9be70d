package dev.jobqueue.autoconfigure;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

import dev.jobqueue.store.TableHealth;

/**
 * The overview's table health on PostgreSQL: the job table's dead rows, its last vacuum, and how long and how many
 * transactions the oldest transaction holding back the xmin horizon has held it, with a warning that says what to
 * do once one passes its {@code jobqueue.console.*-warning}. SQLite keeps no dead rows: nothing is shown there.
 *
 * @param xminHeldWarning 0: never
 * @param deadRowsWarning 0: never
 */
record ConsoleTableHealth(Duration xminHeldWarning, long deadRowsWarning) {

	/** Finds the transactions holding the horizon back, oldest first. */
	static final String FIND_HOLDERS = "SELECT pid, usename, xact_start, state, left(query, 80) FROM pg_stat_activity "
			+ "WHERE backend_xmin IS NOT NULL OR backend_xid IS NOT NULL ORDER BY xact_start LIMIT 5";

	void render(ConsoleHtml page, Optional<TableHealth> sampled) {
		if (sampled.isEmpty()) {
			return;
		}
		TableHealth table = sampled.get();
		page.raw("<h2>Table health</h2><table id=\"table-health\"><tr><th>Dead rows</th><th>Last vacuum</th>"
				+ "<th>xmin held for</th><th>xmin age (transactions)</th></tr><tr>")
			.cell(String.format(Locale.ROOT, "%,d", table.deadRows()))
			.cell(table.sinceVacuum().map(since -> ConsoleOverviewPage.age(since) + " ago").orElse("none recorded"))
			.cell(ConsoleOverviewPage.age(table.xminHeld()))
			.cell(String.format(Locale.ROOT, "%,d", table.xminAge()))
			.raw("</tr></table>");
		if (over(table.xminHeld(), xminHeldWarning)) {
			page.raw("<p class=\"warning\" id=\"xmin-warning\">A transaction has held back the xmin horizon for ")
				.text(ConsoleOverviewPage.age(table.xminHeld()))
				.raw(" (over jobqueue.console.xmin-held-warning, ").text(ConsoleOverviewPage.age(xminHeldWarning))
				.raw("): no job row that died after it began can be vacuumed, and claims slow down as dead rows grow. "
						+ "Find it with <code>")
				.text(FIND_HOLDERS)
				.raw("</code> and end it (<code>SELECT pg_terminate_backend(pid)</code>), or look for an old replication "
						+ "slot or prepared transaction.</p>");
		}
		if (deadRowsWarning > 0 && table.deadRows() > deadRowsWarning) {
			page.raw("<p class=\"warning\" id=\"dead-rows-warning\">The job table holds ")
				.text(String.format(Locale.ROOT, "%,d", table.deadRows()))
				.raw(" dead rows (over jobqueue.console.dead-rows-warning, ")
				.text(String.format(Locale.ROOT, "%,d", deadRowsWarning))
				.raw("): check that autovacuum reaches the table and that nothing holds back the xmin horizon.</p>");
		}
	}

	private static boolean over(Duration value, Duration threshold) {
		return !threshold.isZero() && value.compareTo(threshold) > 0;
	}
}

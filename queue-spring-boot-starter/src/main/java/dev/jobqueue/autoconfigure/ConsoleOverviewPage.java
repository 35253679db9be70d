package dev.jobqueue.autoconfigure;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.Node;
import dev.jobqueue.autoconfigure.ConsoleServlet.ConsoleRequest;
import dev.jobqueue.store.JobCounts;
import dev.jobqueue.store.JobStore;

/**
 * The console's first page: jobs per queue and state, each count a link to its jobs, how long each queue's oldest
 * due ready job has waited, the jobs finished in each of the last minutes, the table's health, the live nodes, and
 * the paused queues and kinds; with writes enabled, a pause or resume button beside each.
 */
final class ConsoleOverviewPage {

	static final int REFRESH_SECONDS = 10;

	private final JobQueue queue;

	private final JobStore store;

	private final ConsoleTableHealth tableHealth;

	ConsoleOverviewPage(JobQueue queue, JobStore store, ConsoleTableHealth tableHealth) {
		this.queue = queue;
		this.store = store;
		this.tableHealth = tableHealth;
	}

	/** @param refresh whether the page loads itself again every {@link #REFRESH_SECONDS} */
	String render(ConsoleRequest request, boolean refresh) {
		ConsoleHtml page = ConsoleHtml.refreshingPage(request.base(), "Overview", request.base() + "/", refresh,
				REFRESH_SECONDS);
		Map<String, Instant> pausedQueues = queue.pausedQueues();
		counts(page, request, queue.countByQueueAndState(), pausedQueues);
		ConsoleThroughput.render(page, store.telemetry().finishedPerMinute(ConsoleThroughput.MINUTES), store.explain().now());
		tableHealth.render(page, store.telemetry().tableHealth());
		nodes(page);
		thisNode(page, request, queue.queues().concurrency());
		pauses(page, request, pausedQueues, queue.pausedKinds());
		return page.end();
	}

	private void counts(ConsoleHtml page, ConsoleRequest request, Map<String, Map<JobState, Long>> counts,
			Map<String, Instant> pausedQueues) {
		String base = request.base();
		page.raw("<h2>Jobs by queue and state</h2><table id=\"counts\"><tr><th>Queue</th>");
		for (JobState state : JobState.values()) {
			page.raw("<th>").text(state).raw("</th>");
		}
		page.raw("<th>Oldest ready</th>").raw(request.writes() ? "<th></th>" : "").raw("</tr>");
		Map<JobState, Long> totals = new EnumMap<>(JobState.class);
		Set<JobState> capped = EnumSet.noneOf(JobState.class);
		counts.forEach((name, byState) -> {
			page.raw("<tr><th>").text(name).raw("</th>");
			for (JobState state : JobState.values()) {
				long count = byState.getOrDefault(state, 0L);
				totals.merge(state, count, Long::sum);
				if (JobCounts.atLeast(state, count)) {
					capped.add(state);
				}
				page.raw("<td class=\"n\"><a href=\"")
					.url(base + "/jobs?queue=" + ConsoleHtml.param(name) + "&state=" + state)
					.raw("\">")
					.text(count(count, JobCounts.atLeast(state, count)))
					.raw("</a></td>");
			}
			oldestReady(page, base, name, byState.getOrDefault(JobState.ready, 0L));
			if (request.writes()) {
				page.raw("<td>");
				if (pausedQueues.containsKey(name)) {
					page.raw("paused");
				}
				else {
					pauseButton(page, request, "queue", name, "pause");
				}
				page.raw("</td>");
			}
			page.raw("</tr>");
		});
		totals(page, totals, capped);
		if (!capped.isEmpty()) {
			page.raw("<p>≥: finished jobs are counted up to ").text(count(JobCounts.FINISHED_CAP, false))
				.raw(" per queue and state; there are at least that many.</p>");
		}
	}

	/** A total is at least its sum when one of its counts stopped at the cap. */
	private static void totals(ConsoleHtml page, Map<JobState, Long> totals, Set<JobState> capped) {
		page.raw("<tr><th>all</th>");
		for (JobState state : JobState.values()) {
			page.raw("<td class=\"n\" id=\"total-").text(state).raw("\">")
				.text(count(totals.getOrDefault(state, 0L), capped.contains(state)))
				.raw("</td>");
		}
		page.raw("<td></td></tr></table>");
	}

	/** {@code 42}, or {@code ≥ 10,000} for a count that stopped at the cap. */
	static String count(long count, boolean atLeast) {
		return atLeast ? String.format(Locale.ROOT, "≥ %,d", count) : String.valueOf(count);
	}

	/**
	 * The wait of the queue's oldest due ready job, the on-call's first signal: one probe of the ready index per
	 * priority, asked only of a queue that holds ready jobs.
	 */
	private void oldestReady(ConsoleHtml page, String base, String name, long ready) {
		page.raw("<td class=\"n\" id=\"oldest-").text(name).raw("\">");
		if (ready > 0) {
			String wait = age(store.telemetry().oldestReadyAge(name));
			Optional<Long> job = store.telemetry().oldestReadyJob(name);
			if (job.isPresent()) {
				// The job's page explains why it waits: a paused queue, a kind no node serves, its key's slots.
				page.raw("<a href=\"").url(base + "/jobs/" + job.get()).raw("\">").text(wait).raw("</a>");
			}
			else {
				page.text(wait);
			}
		}
		page.raw("</td>");
	}

	/** A wait to the second, in its two largest units: {@code 0s}, {@code 42s}, {@code 3m 5s}, {@code 2h 10m}. */
	static String age(Duration wait) {
		long seconds = wait.toSeconds();
		if (seconds < 60) {
			return seconds + "s";
		}
		if (seconds < 3600) {
			return seconds / 60 + "m " + seconds % 60 + "s";
		}
		return seconds / 3600 + "h " + seconds % 3600 / 60 + "m";
	}

	private void nodes(ConsoleHtml page) {
		page.raw("<h2>Nodes</h2><table id=\"nodes\"><tr><th>Name</th><th>Host</th><th>Version</th>"
				+ "<th>Queues (threads)</th><th>Kinds</th><th>Started</th><th>Last seen</th></tr>");
		for (Node node : queue.nodes()) {
			page.raw("<tr>")
				.cell(node.name())
				.cell(node.host())
				.cell(node.version())
				.cell(node.queues())
				.cell(String.join(", ", node.kinds()))
				.time(node.startedAt())
				.time(node.lastSeenAt())
				.raw("</tr>");
		}
		page.raw("</table>");
	}

	/** With writes enabled, the queues of the node serving the console, each with a form that resizes it there. */
	private static void thisNode(ConsoleHtml page, ConsoleRequest request, Map<String, Integer> concurrency) {
		if (!request.writes() || concurrency.isEmpty()) {
			return;
		}
		page.raw("<h2>Threads of this node</h2><p>How many of each queue's jobs the node serving this page runs at once; "
				+ "every other node keeps its own, and a restart starts again from the configured size.</p>"
				+ "<table id=\"this-node\"><tr><th>Queue</th><th>Threads</th></tr>");
		concurrency.forEach((name, threads) -> page.raw("<tr>").cell(name).raw("<td>")
			.raw("<form class=\"inline\" method=\"post\" action=\"").url(request.base() + "/queues/resize").raw("\">")
			.raw(request.csrfField())
			.raw("<input type=\"hidden\" name=\"queue\" value=\"").text(name).raw("\">")
			.raw("<input type=\"number\" min=\"1\" name=\"concurrency\" id=\"").text("size-" + name)
			.raw("\" value=\"").text(threads).raw("\"> <button type=\"submit\" id=\"").text("resize-" + name)
			.raw("\">Resize</button></form></td></tr>"));
		page.raw("</table>");
	}

	/**
	 * The paused queues and kinds, each since when, with a resume button; and, when writes are on, a form that pauses a
	 * queue or a kind by name (on every node, until resumed).
	 */
	private static void pauses(ConsoleHtml page, ConsoleRequest request, Map<String, Instant> queues,
			Map<String, Instant> kinds) {
		page.raw("<h2>Paused</h2><div id=\"paused\">");
		if (queues.isEmpty() && kinds.isEmpty()) {
			page.raw("<p>No queue or kind is paused.</p>");
		}
		else {
			page.raw("<table><tr><th>Paused</th><th>Name</th><th>Since</th>")
				.raw(request.writes() ? "<th></th>" : "").raw("</tr>");
			pausedRows(page, request, "queue", queues);
			pausedRows(page, request, "kind", kinds);
			page.raw("</table>");
		}
		page.raw("</div>");
		if (request.writes()) {
			page.raw("<form method=\"post\" action=\"").url(request.base() + "/pauses").raw("\" id=\"pause-form\">")
				.raw(request.csrfField())
				.raw("<label>Pause <select name=\"scope\" id=\"pause-scope\"><option>queue</option><option>kind</option>"
						+ "</select></label> <input name=\"name\" id=\"pause-name\" required> "
						+ "<button type=\"submit\" name=\"action\" value=\"pause\" id=\"pause\">Pause</button></form>");
		}
	}

	private static void pausedRows(ConsoleHtml page, ConsoleRequest request, String scope, Map<String, Instant> paused) {
		paused.forEach((name, since) -> {
			page.raw("<tr>").cell(scope).cell(name).time(since);
			if (request.writes()) {
				page.raw("<td>");
				pauseButton(page, request, scope, name, "resume");
				page.raw("</td>");
			}
			page.raw("</tr>");
		});
	}

	private static void pauseButton(ConsoleHtml page, ConsoleRequest request, String scope, String name,
			String action) {
		Map<String, String> fields = new LinkedHashMap<>();
		fields.put("scope", scope);
		fields.put("name", name);
		fields.put("action", action);
		page.postButton(request.base() + "/pauses", request.csrfField(), fields, action + "-" + scope + "-" + name,
				action.equals("pause") ? "Pause" : "Resume");
	}
}

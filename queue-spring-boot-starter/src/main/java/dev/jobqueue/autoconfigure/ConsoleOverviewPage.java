package dev.jobqueue.autoconfigure;

import java.util.EnumMap;
import java.util.Map;

import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.Node;
import dev.jobqueue.autoconfigure.ConsoleServlet.ConsoleRequest;

/** The console's first page: jobs per queue and state, each count a link to its jobs, and the live nodes. */
final class ConsoleOverviewPage {

	private final JobQueue queue;

	ConsoleOverviewPage(JobQueue queue) {
		this.queue = queue;
	}

	String render(ConsoleRequest request) {
		ConsoleHtml page = ConsoleHtml.page(request.base(), "Overview");
		counts(page, request.base(), queue.countByQueueAndState());
		nodes(page);
		return page.end();
	}

	private void counts(ConsoleHtml page, String base, Map<String, Map<JobState, Long>> counts) {
		page.raw("<h2>Jobs by queue and state</h2><table id=\"counts\"><tr><th>Queue</th>");
		for (JobState state : JobState.values()) {
			page.raw("<th>").text(state).raw("</th>");
		}
		page.raw("</tr>");
		Map<JobState, Long> totals = new EnumMap<>(JobState.class);
		counts.forEach((name, byState) -> {
			page.raw("<tr><th>").text(name).raw("</th>");
			for (JobState state : JobState.values()) {
				long count = byState.getOrDefault(state, 0L);
				totals.merge(state, count, Long::sum);
				page.raw("<td class=\"n\"><a href=\"")
					.url(base + "/jobs?queue=" + ConsoleHtml.param(name) + "&state=" + state)
					.raw("\">")
					.text(count)
					.raw("</a></td>");
			}
			page.raw("</tr>");
		});
		totals(page, totals);
	}

	private static void totals(ConsoleHtml page, Map<JobState, Long> totals) {
		page.raw("<tr><th>all</th>");
		for (JobState state : JobState.values()) {
			page.raw("<td class=\"n\" id=\"total-").text(state).raw("\">").text(totals.getOrDefault(state, 0L))
				.raw("</td>");
		}
		page.raw("</tr></table>");
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
		if (!queue.pausedQueues().isEmpty()) {
			page.raw("<p>Paused queues: ").text(queue.pausedQueues().keySet()).raw("</p>");
		}
	}
}

package dev.jobqueue.autoconfigure;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

import jakarta.servlet.http.HttpServletRequest;

import dev.jobqueue.Job;
import dev.jobqueue.JobPage;
import dev.jobqueue.JobQuery;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.autoconfigure.ConsoleServlet.ConsoleRequest;

/**
 * The job list: filters by queue, kind and state, newest first, one keyset page at a time (the next page's
 * link carries the search's cursor). Dead jobs can be retried in bulk: those ticked (none is by default); and every job
 * the filter matches can be retried, cancelled or deleted, as its state allows, after a page that says how many
 * ({@link ConsoleBulkPage}).
 */
final class ConsoleJobsPage {

	static final int REFRESH_SECONDS = 30;

	private final JobQueue queue;

	ConsoleJobsPage(JobQueue queue) {
		this.queue = queue;
	}

	String render(ConsoleRequest console, HttpServletRequest request) {
		Filter filter = Filter.of(request);
		JobPage jobs = queue.search(filter.query(), blankToNull(request.getParameter("cursor")));
		boolean bulkRetry = console.writes() && filter.state() == JobState.dead && !jobs.jobs().isEmpty();
		// A list with boxes to tick is not reloaded under the operator's hand unless asked to be.
		boolean refresh = request.getParameter("refresh") == null ? !bulkRetry : request.getParameter("refresh").equals("on");
		String cursor = blankToNull(request.getParameter("cursor"));
		ConsoleHtml page = ConsoleHtml.refreshingPage(console.base(),
				filter.state() == JobState.dead ? "Dead jobs" : "Jobs",
				console.base() + "/jobs?" + filter.params() + (cursor == null ? "" : "&cursor=" + ConsoleHtml.param(cursor)),
				refresh, REFRESH_SECONDS);
		for (ConsoleBulkAction action : ConsoleBulkAction.values()) {
			String changed = request.getParameter(action.done());
			if (changed != null) {
				page.raw("<p id=\"").text(action.done()).raw("\">")
					.text(Character.toUpperCase(action.done().charAt(0)) + action.done().substring(1) + " " + changed
							+ (changed.equals("1") ? " job." : " jobs."))
					.raw("</p>");
			}
		}
		form(page, console.base(), filter);
		if (console.writes() && !jobs.jobs().isEmpty()) {
			bulkActions(page, console.base(), filter);
			page.raw("<form method=\"post\" action=\"").url(console.base() + "/jobs/retry").raw("\">")
				.raw(console.csrfField());
		}
		table(page, console.base(), jobs, bulkRetry);
		if (bulkRetry) {
			page.raw("<button type=\"submit\" id=\"retry-selected\">Retry the ticked jobs</button></form>");
		}
		if (jobs.hasNext()) {
			page.raw("<p><a id=\"next\" href=\"")
				.url(console.base() + "/jobs?" + filter.params() + "&cursor=" + ConsoleHtml.param(jobs.nextCursor()))
				.raw("\">Next page →</a></p>");
		}
		return page.end();
	}

	/** A button per {@link ConsoleBulkAction} that applies to the filter's state, each to its preview page. */
	private static void bulkActions(ConsoleHtml page, String base, Filter filter) {
		for (ConsoleBulkAction action : ConsoleBulkAction.values()) {
			if (action.offeredFor(filter.state())) {
				page.raw("<form class=\"inline\" method=\"get\" action=\"").url(base + action.path()).raw("\">");
				filter.hiddenFields(page);
				page.raw("<button type=\"submit\" id=\"").text(action.id()).raw("\">").text(action.verb())
					.text(" every " + action.states(filter.state()) + " job that matches…").raw("</button></form> ");
			}
		}
	}

	private static void form(ConsoleHtml page, String base, Filter filter) {
		page.raw("<form method=\"get\" action=\"").url(base + "/jobs").raw("\" id=\"filter\">")
			.raw("<label>Queue <input name=\"queue\" value=\"").text(filter.queue()).raw("\"></label>")
			.raw("<label>Kind <input name=\"kind\" value=\"").text(filter.kind()).raw("\"></label>")
			.raw("<label>Error holds <input name=\"error\" value=\"").text(filter.error()).raw("\"></label>")
			.raw("<label>State <select name=\"state\"><option value=\"\">any</option>");
		for (JobState state : JobState.values()) {
			page.raw("<option").raw(state == filter.state() ? " selected" : "").raw(">").text(state)
				.raw("</option>");
		}
		page.raw("</select></label><button type=\"submit\">Filter</button></form>");
	}

	private static void table(ConsoleHtml page, String base, JobPage jobs, boolean selectable) {
		if (jobs.jobs().isEmpty()) {
			page.raw("<p>No jobs match.</p>");
			return;
		}
		page.raw("<table id=\"jobs\"><tr>").raw(selectable ? "<th>Retry</th>" : "")
			.raw("<th>Id</th><th>Queue</th><th>Kind</th><th>State</th><th>Attempt</th><th>Run at</th>"
					+ "<th>Created</th><th>Last error</th></tr>");
		for (Job job : jobs.jobs()) {
			page.raw("<tr>");
			if (selectable) {
				page.raw("<td><input type=\"checkbox\" name=\"id\" value=\"").text(job.id()).raw("\"></td>");
			}
			page.raw("<td><a href=\"").url(base + "/jobs/" + job.id()).raw("\">").text(job.id()).raw("</a></td>")
				.cell(job.queue())
				.cell(job.kind())
				.raw("<td class=\"").text(job.state()).raw("\">").text(job.state()).raw("</td>")
				.cell(job.attempt() + " of " + job.maxAttempts())
				.time(job.runAt())
				.time(job.createdAt())
				.cell(firstLine(job.lastError()))
				.raw("</tr>");
		}
		page.raw("</table>");
	}

	private static String firstLine(String text) {
		if (text == null) {
			return null;
		}
		int end = text.indexOf('\n');
		String line = end < 0 ? text : text.substring(0, end);
		return line.length() > 160 ? line.substring(0, 160) + "…" : line;
	}

	private static String blankToNull(String value) {
		return value == null || value.isBlank() ? null : value.strip();
	}

	/** The filters as the form sent them; each is checked by {@link JobQuery}, so a bad one is a 400. */
	record Filter(String queue, String kind, JobState state, String error) {

		static Filter of(HttpServletRequest request) {
			String state = blankToNull(request.getParameter("state"));
			return new Filter(blankToNull(request.getParameter("queue")), blankToNull(request.getParameter("kind")),
					state == null ? null : parseState(state), blankToNull(request.getParameter("error")));
		}

		/** The same filter in any state. */
		Filter anyState() {
			return new Filter(queue, kind, null, error);
		}

		private static JobState parseState(String state) {
			try {
				return JobState.valueOf(state.toLowerCase(Locale.ROOT));
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalArgumentException("state must be one of " + Arrays.stream(JobState.values())
					.map(JobState::name).collect(Collectors.joining(", ")) + "; was '" + state + "'");
			}
		}

		/** The filter as a form's hidden fields. */
		void hiddenFields(ConsoleHtml page) {
			hidden(page, "queue", queue);
			hidden(page, "kind", kind);
			hidden(page, "state", state == null ? null : state.name());
			hidden(page, "error", error);
		}

		/** The filter in words, for a sentence: {@code " of kind mail in queue default whose error holds 'x'"}. */
		String inWords() {
			return (kind == null ? "" : " of kind " + kind) + (queue == null ? "" : " in queue " + queue)
					+ (error == null ? "" : " whose error holds '" + error + "'");
		}

		private static void hidden(ConsoleHtml page, String name, String value) {
			if (value != null) {
				page.raw("<input type=\"hidden\" name=\"" + name + "\" value=\"").text(value).raw("\">");
			}
		}

		JobQuery query() {
			JobQuery query = JobQuery.all();
			query = queue == null ? query : query.queue(queue);
			query = kind == null ? query : query.kind(kind);
			query = error == null ? query : query.errorContains(error);
			return state == null ? query : query.states(state);
		}

		String params() {
			return "queue=" + ConsoleHtml.param(queue == null ? "" : queue) + "&kind="
					+ ConsoleHtml.param(kind == null ? "" : kind) + "&state=" + (state == null ? "" : state)
					+ (error == null ? "" : "&error=" + ConsoleHtml.param(error));
		}
	}
}

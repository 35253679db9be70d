package dev.jobqueue.autoconfigure;

import jakarta.servlet.http.HttpServletRequest;

import dev.jobqueue.JobPage;
import dev.jobqueue.JobQuery;
import dev.jobqueue.JobQueue;
import dev.jobqueue.autoconfigure.ConsoleJobsPage.Filter;
import dev.jobqueue.autoconfigure.ConsoleServlet.ConsoleRequest;

/**
 * Before a {@link ConsoleBulkAction} on every job a filter matches: how many there are ("Retry 2,140 dead jobs of kind
 * partner-sync?"), counted up to {@link #COUNT_CAP} and said to be at least that beyond, and the button that does it.
 * Nothing changes until it is pressed.
 */
final class ConsoleBulkPage {

	/** The most jobs the preview counts: 20 pages of the search at most. */
	static final int COUNT_CAP = 10_000;

	private final JobQueue queue;

	ConsoleBulkPage(JobQueue queue) {
		this.queue = queue;
	}

	String render(ConsoleRequest console, HttpServletRequest request, ConsoleBulkAction action) {
		Filter filter = Filter.of(request);
		long count = count(action.query(filter).pageSize(JobQuery.MAX_PAGE_SIZE));
		ConsoleHtml page = ConsoleHtml.page(console.base(), action.verb() + " jobs");
		page.raw("<p id=\"preview\">").text(action.verb()).text(" ").text(count >= COUNT_CAP ? "at least " : "")
			.text(String.format("%,d", count)).text(" " + action.states(filter.state()) + " job" + (count == 1 ? "" : "s")
					+ filter.inWords() + "?")
			.raw("</p>");
		if (console.writes() && count > 0) {
			page.raw("<form method=\"post\" action=\"").url(console.base() + action.path()).raw("\">")
				.raw(console.csrfField());
			filter.hiddenFields(page);
			page.raw("<button type=\"submit\" id=\"confirm\">").text(action.verb()).raw(" them</button></form> ");
		}
		return page.raw("<p><a href=\"").url(console.base() + "/jobs?" + filter.params())
			.raw("\">Back to the list</a></p>")
			.end();
	}

	private long count(JobQuery query) {
		long count = 0;
		String cursor = null;
		do {
			JobPage jobs = queue.search(query, cursor);
			count += jobs.jobs().size();
			cursor = jobs.hasNext() ? jobs.nextCursor() : null;
		}
		while (cursor != null && count < COUNT_CAP);
		return Math.min(count, COUNT_CAP);
	}
}

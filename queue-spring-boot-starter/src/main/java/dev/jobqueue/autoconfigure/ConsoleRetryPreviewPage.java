package dev.jobqueue.autoconfigure;

import jakarta.servlet.http.HttpServletRequest;

import dev.jobqueue.JobPage;
import dev.jobqueue.JobQuery;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.autoconfigure.ConsoleJobsPage.Filter;
import dev.jobqueue.autoconfigure.ConsoleServlet.ConsoleRequest;

/**
 * Before a retry of every dead job a filter matches: how many there are ("Retry 2,140 dead jobs of kind
 * partner-sync?"), counted up to {@link #COUNT_CAP} and said to be at least that beyond, and the button that retries
 * them ({@link JobQueue#retryAll(JobQuery)}, in batches). Nothing changes until it is pressed.
 */
final class ConsoleRetryPreviewPage {

	/** The most dead jobs the preview counts: 20 pages of the search at most. */
	static final int COUNT_CAP = 10_000;

	private final JobQueue queue;

	ConsoleRetryPreviewPage(JobQueue queue) {
		this.queue = queue;
	}

	String render(ConsoleRequest console, HttpServletRequest request) {
		Filter filter = Filter.of(request);
		Filter dead = new Filter(filter.queue(), filter.kind(), JobState.dead);
		long count = count(dead.query().pageSize(JobQuery.MAX_PAGE_SIZE));
		ConsoleHtml page = ConsoleHtml.page(console.base(), "Retry dead jobs");
		page.raw("<p id=\"preview\">Retry ").text(count >= COUNT_CAP ? "at least " : "")
			.text(String.format("%,d", count)).text(" dead job" + (count == 1 ? "" : "s") + dead.inWords() + "?")
			.raw("</p>");
		if (console.writes() && count > 0) {
			page.raw("<form method=\"post\" action=\"").url(console.base() + "/jobs/retry-matching").raw("\">")
				.raw(console.csrfField());
			dead.hiddenFields(page);
			page.raw("<button type=\"submit\" id=\"confirm\">Retry them</button></form> ");
		}
		return page.raw("<p><a href=\"").url(console.base() + "/jobs?" + dead.params()).raw("\">Back to the list</a></p>")
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

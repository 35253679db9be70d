package dev.jobqueue.autoconfigure;

import java.util.Map;
import java.util.Optional;

import dev.jobqueue.Job;
import dev.jobqueue.JobLog;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.autoconfigure.ConsoleServlet.ConsoleRequest;

/**
 * One job: why it is (not) running, its timestamps and attempts, its handler's progress and log lines, payload and
 * result, and every failure kept with its stack trace; retry and cancel buttons when writes are enabled and the state
 * allows them.
 */
final class ConsoleJobPage {

	private final JobQueue queue;

	ConsoleJobPage(JobQueue queue) {
		this.queue = queue;
	}

	/** The page, and whether the job exists: an unknown one is answered 404, with the explain sentence. */
	record Rendered(boolean found, String html) {
	}

	Rendered render(ConsoleRequest console, long id) {
		Optional<Job> found = queue.find(id);
		ConsoleHtml page = ConsoleHtml.page(console.base(), "Job " + id);
		page.raw("<p class=\"explain\" id=\"explain\">").text(queue.explain(id).message()).raw("</p>");
		if (found.isEmpty()) {
			return new Rendered(false, page.end());
		}
		Job job = found.get();
		if (console.writes()) {
			actions(page, console, job);
		}
		facts(page, job);
		log(page, queue.log(id));
		page.raw("<h2>Payload</h2><pre id=\"payload\">").text(job.payload()).raw("</pre>");
		if (job.result() != null) {
			page.raw("<h2>Result</h2><pre id=\"result\">").text(job.result()).raw("</pre>");
		}
		errors(page, job);
		return new Rendered(true, page.end());
	}

	private static void actions(ConsoleHtml page, ConsoleRequest console, Job job) {
		if (job.state() == JobState.dead || job.state() == JobState.cancelled) {
			button(page, console, job.id(), "retry", "Retry");
		}
		if (!job.state().isFinished()) {
			button(page, console, job.id(), "cancel", "Cancel");
		}
	}

	private static void button(ConsoleHtml page, ConsoleRequest console, long id, String action, String label) {
		page.postButton(console.base() + "/jobs/" + id + "/" + action, console.csrfField(), Map.of(), action, label);
	}

	private static void facts(ConsoleHtml page, Job job) {
		page.raw("<table id=\"facts\">");
		fact(page, "Queue", job.queue());
		fact(page, "Kind", job.kind());
		page.raw("<tr><th>State</th><td class=\"").text(job.state()).raw("\">").text(job.state()).raw("</td></tr>");
		fact(page, "Attempt", job.attempt() + " of " + job.maxAttempts());
		fact(page, "Priority", job.priority());
		fact(page, "Created", job.createdAt());
		fact(page, "Run at", job.runAt());
		fact(page, "Started", job.startedAt());
		fact(page, "Finished", job.finishedAt());
		fact(page, "Lease", job.leaseOwner() == null ? null : job.leaseOwner() + " until " + job.leaseExpiresAt());
		fact(page, "Unique key", job.uniqueKey());
		fact(page, "Concurrency key", job.concurrencyKey());
		fact(page, "Payload version", job.payloadVersion());
		page.raw("</table>");
	}

	private static void fact(ConsoleHtml page, String name, Object value) {
		page.raw("<tr><th>").text(name).raw("</th>").cell(value).raw("</tr>");
	}

	/** Shown only for a handler that logged or gave progress: most never do. */
	private static void log(ConsoleHtml page, JobLog log) {
		JobLog.Progress progress = log.progress();
		if (progress != null) {
			page.raw("<h2>Progress</h2><p><progress id=\"progress\" max=\"").text(progress.total()).raw("\" value=\"")
				.text(progress.done()).raw("\"></progress> ")
				.text(progress.done() + " of " + progress.total() + " in attempt " + progress.attempt() + ", at "
						+ progress.at())
				.raw("</p>");
		}
		if (log.lines().isEmpty()) {
			return;
		}
		page.raw("<h2>Log</h2><table id=\"log\"><tr><th>Attempt</th><th>At</th><th>Line</th></tr>");
		for (JobLog.Line line : log.lines()) {
			page.raw("<tr><td class=\"n\">").text(line.attempt()).raw("</td>")
				.time(line.at())
				.raw("<td><pre>").text(line.text()).raw("</pre></td></tr>");
		}
		page.raw("</table>");
	}

	private static void errors(ConsoleHtml page, Job job) {
		page.raw("<h2>Errors</h2>");
		if (job.errors().isEmpty()) {
			page.raw("<p>None.</p>");
			return;
		}
		page.raw("<table id=\"errors\"><tr><th>Attempt</th><th>At</th><th>Worker</th><th>Error</th></tr>");
		// Newest first: the failure an operator came for is the latest.
		for (int i = job.errors().size() - 1; i >= 0; i--) {
			Job.AttemptError error = job.errors().get(i);
			page.raw("<tr><td class=\"n\">").text(error.attempt()).raw("</td>")
				.time(error.at())
				.cell(error.worker())
				.raw("<td><pre>").text(error.message()).raw("</pre></td></tr>");
		}
		page.raw("</table>");
		if (job.lastError() != null) {
			page.raw("<h2>Last error in full</h2><pre id=\"last-error\">").text(job.lastError()).raw("</pre>");
		}
	}
}

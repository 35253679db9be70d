package dev.jobqueue.autoconfigure;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.jobqueue.JobQueue;
import dev.jobqueue.Schedules;
import dev.jobqueue.store.JobStore;

/**
 * The operator's console: server-rendered pages over {@link JobQueue}'s search, counts, explain and node
 * registry, and the store's reads the Actuator endpoint and the health sampler use as well (each queue's oldest
 * ready job, the schedules). A servlet of its own rather than Spring MVC controllers, so that it needs nothing of the
 * application's web setup but a servlet container, and its path is one mapping.
 */
final class ConsoleServlet extends HttpServlet {

	private static final Pattern JOB = Pattern.compile("/jobs/(\\d{1,18})");

	private static final Pattern JOB_ACTION = Pattern.compile("/jobs/(\\d{1,18})/(retry|cancel)");

	/** The console's audit log: a logger of its own, which an application can route to where its audits go. */
	static final Logger AUDIT = LoggerFactory.getLogger("dev.jobqueue.console.audit");

	/** Pages print untrusted text: no script may run, and no other site may frame them. */
	private static final String CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; "
			+ "img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

	private final transient JobQueue queue;

	private final transient JobStore store;

	private final boolean writesEnabled;

	private final ConsoleTableHealth tableHealth;

	ConsoleServlet(JobQueue queue, JobStore store, boolean writesEnabled, ConsoleTableHealth tableHealth) {
		this.queue = queue;
		this.store = store;
		this.writesEnabled = writesEnabled;
		this.tableHealth = tableHealth;
	}

	@Override
	protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
		ConsoleRequest console = consoleRequest(request);
		String path = path(request);
		Matcher job = JOB.matcher(path);
		try {
			if (path.equals("/")) {
				send(response, 200, new ConsoleOverviewPage(queue, store, tableHealth).render(console,
						!"off".equals(request.getParameter("refresh"))));
			}
			else if (path.equals("/queues/resize")) {
			resize(request);
			response.sendRedirect(console.base() + "/");
		}
		else if (path.equals("/schedules")) {
				send(response, 200, ConsoleSchedulesPage.render(console, queue.schedules().list()));
			}
			else if (path.equals("/jobs")) {
				send(response, 200, new ConsoleJobsPage(queue).render(console, request));
			}
			else if (ConsoleBulkAction.ofPath(path) != null) {
				send(response, 200, new ConsoleBulkPage(queue).render(console, request, ConsoleBulkAction.ofPath(path)));
			}
			else if (job.matches()) {
				ConsoleJobPage.Rendered page = new ConsoleJobPage(queue).render(console, Long.parseLong(job.group(1)));
				send(response, page.found() ? 200 : 404, page.html());
			}
			else {
				send(response, 404, ConsoleHtml.page(console.base(), "Not found").end());
			}
		}
		catch (IllegalArgumentException ex) {
			send(response, 400, ConsoleHtml.page(console.base(), "Bad request").raw("<p>").text(ex.getMessage())
				.raw("</p>").end());
		}
	}

	@Override
	protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
		ConsoleRequest console = consoleRequest(request);
		if (!writesEnabled) {
			send(response, 403, ConsoleHtml.page(console.base(), "Read-only")
				.raw("<p>The console is read-only: set jobqueue.console.writes-enabled=true to allow changes.</p>")
				.end());
			return;
		}
		if (!ConsoleOrigin.isSameOrigin(request)) {
			send(response, 403, ConsoleHtml.page(console.base(), "Refused")
				.raw("<p>A change to jobs is taken only from the console's own pages, not from another site.</p>")
				.end());
			return;
		}
		try {
			write(console, path(request), request, response);
		}
		catch (IllegalArgumentException ex) {
			send(response, 400, ConsoleHtml.page(console.base(), "Bad request").raw("<p>").text(ex.getMessage())
				.raw("</p>").end());
		}
		catch (IllegalStateException ex) {
			// A dead job whose unique key another job holds stays dead, a node without workers resizes nothing: the
			// message says why.
			send(response, 409, ConsoleHtml.page(console.base(), "Not changed").raw("<p>").text(ex.getMessage())
				.raw("</p>").end());
		}
	}

	private void write(ConsoleRequest console, String path, HttpServletRequest request,
			HttpServletResponse response) throws IOException {
		Matcher action = JOB_ACTION.matcher(path);
		if (action.matches()) {
			long id = Long.parseLong(action.group(1));
			boolean retry = action.group(2).equals("retry");
			boolean changed = retry ? queue.retry(id) : queue.cancel(id);
			if (changed) {
				audit(request, (retry ? "retried" : "cancelled") + " job " + id);
			}
			response.sendRedirect(console.base() + "/jobs/" + id + "?changed=" + changed);
		}
		else if (path.equals("/jobs/retry")) {
			List<Long> ids = ids(request);
			long retried = queue.retryAll(ids);
			audit(request, "retried " + retried + " of the " + ids.size() + " dead jobs ticked");
			response.sendRedirect(console.base() + "/jobs?state=dead&retried=" + retried);
		}
		else if (ConsoleBulkAction.ofPath(path) != null) {
			ConsoleBulkAction bulk = ConsoleBulkAction.ofPath(path);
			ConsoleJobsPage.Filter filter = ConsoleJobsPage.Filter.of(request);
			long changed = bulk.apply(queue, bulk.query(filter));
			audit(request, bulk.done() + " " + changed + " " + bulk.states(filter.state()) + " jobs" + filter.inWords());
			response.sendRedirect(console.base() + "/jobs?" + filter.params() + "&" + bulk.done() + "=" + changed);
		}
		else if (path.equals("/pauses")) {
			pauseOrResume(request);
			response.sendRedirect(console.base() + "/");
		}
		else if (path.equals("/queues/resize")) {
			resize(request);
			response.sendRedirect(console.base() + "/");
		}
		else if (path.equals("/schedules")) {
			response.sendRedirect(console.base() + schedule(request));
		}
		else {
			send(response, 404, ConsoleHtml.page(console.base(), "Not found").end());
		}
	}

	/** A queue or a kind paused or resumed on every node, as {@link JobQueue#pause} and the others say. */
	private void pauseOrResume(HttpServletRequest request) {
		String scope = String.valueOf(request.getParameter("scope"));
		String action = String.valueOf(request.getParameter("action"));
		String name = request.getParameter("name") == null ? "" : request.getParameter("name").strip();
		if (!scope.matches("queue|kind") || !action.matches("pause|resume")) {
			throw new IllegalArgumentException("scope must be queue or kind, and action pause or resume; was '"
					+ scope + "' and '" + action + "'");
		}
		boolean queueScope = scope.equals("queue");
		boolean changed = action.equals("pause") ? (queueScope ? queue.pause(name) : queue.pauseKind(name))
				: (queueScope ? queue.resume(name) : queue.resumeKind(name));
		if (changed) {
			audit(request, action + "d " + scope + " " + name);
		}
	}

	/** A queue of the node serving the console resized, as {@link dev.jobqueue.WorkerQueues#resize} says. */
	private void resize(HttpServletRequest request) {
		String name = String.valueOf(request.getParameter("queue"));
		String concurrency = String.valueOf(request.getParameter("concurrency")).strip();
		if (!concurrency.matches("\\d{1,6}")) {
			throw new IllegalArgumentException("concurrency must be a number of threads, was '" + concurrency + "'");
		}
		queue.queues().resize(name, Integer.parseInt(concurrency));
		audit(request, "resized queue " + name + " to " + concurrency + " on this node");
	}

	/**
	 * A schedule's job run now, or the schedule paused or resumed, as {@link dev.jobqueue.Schedules} says; returns the
	 * page to show next: the job run, else the schedules.
	 */
	private String schedule(HttpServletRequest request) {
		String name = request.getParameter("name") == null ? "" : request.getParameter("name");
		String action = String.valueOf(request.getParameter("action"));
		Schedules schedules = queue.schedules();
		switch (action) {
			case "trigger" -> {
				long id = schedules.trigger(name);
				audit(request, "triggered schedule " + name + " as job " + id);
				return "/jobs/" + id;
			}
			case "pause", "resume" -> {
				if (action.equals("pause") ? schedules.pause(name) : schedules.resume(name)) {
					audit(request, action + "d schedule " + name);
				}
				return "/schedules";
			}
			default -> throw new IllegalArgumentException(
					"action must be trigger, pause or resume; was '" + action + "'");
		}
	}

	/**
	 * Who changed what, and how many: a line of {@link #AUDIT}'s logger, at INFO, for each change made. Control
	 * characters from the request (a kind, a filter's text) print as {@code ?}, so that no value forges a line.
	 */
	private static void audit(HttpServletRequest request, String change) {
		String who = request.getRemoteUser() == null ? "anonymous" : request.getRemoteUser();
		AUDIT.info("console: {} {}", who.replaceAll("\\p{Cntrl}", "?"), change.replaceAll("\\p{Cntrl}", "?"));
	}

	private ConsoleRequest consoleRequest(HttpServletRequest request) {
		return new ConsoleRequest(request.getContextPath() + request.getServletPath(), writesEnabled,
				ConsoleCsrf.field(request));
	}

	private static String path(HttpServletRequest request) {
		String path = request.getPathInfo();
		return path == null || path.isEmpty() ? "/" : path;
	}

	/** The selected jobs' ids; a value that is not an id is refused before anything changes. */
	private static List<Long> ids(HttpServletRequest request) {
		String[] values = request.getParameterValues("id");
		if (values == null) {
			return List.of();
		}
		return Arrays.stream(values).map(value -> {
			if (!value.matches("\\d{1,18}")) {
				throw new IllegalArgumentException("id must be a job id, was '" + value + "'");
			}
			return Long.parseLong(value);
		}).toList();
	}

	private static void send(HttpServletResponse response, int status, String html) throws IOException {
		response.setStatus(status);
		response.setContentType("text/html;charset=UTF-8");
		response.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
		response.setHeader("X-Content-Type-Options", "nosniff");
		response.setHeader("Cache-Control", "no-store");
		response.getWriter().write(html);
	}

	/**
	 * What a page needs of the request: the console's base URL, whether to offer writes, and the CSRF field
	 * (markup, escaped) its forms carry.
	 */
	record ConsoleRequest(String base, boolean writes, String csrfField) {
	}
}

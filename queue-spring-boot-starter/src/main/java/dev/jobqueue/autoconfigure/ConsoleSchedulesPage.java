package dev.jobqueue.autoconfigure;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.jobqueue.ScheduleStatus;
import dev.jobqueue.autoconfigure.ConsoleServlet.ConsoleRequest;

/**
 * The recurring jobs as every node shares them: each schedule's kind, timing, next and last fire time, whether it
 * was declared in code or added at runtime, and whether it is paused (since when) or disabled; with writes enabled, a
 * button that runs its job now ({@link dev.jobqueue.Schedules#trigger}) and one that pauses or resumes it.
 */
final class ConsoleSchedulesPage {

	private ConsoleSchedulesPage() {
	}

	static String render(ConsoleRequest request, List<ScheduleStatus> schedules) {
		ConsoleHtml page = ConsoleHtml.page(request.base(), "Schedules");
		if (schedules.isEmpty()) {
			return page.raw("<p>No recurring job is declared or added.</p>").end();
		}
		page.raw("<table id=\"schedules\"><tr><th>Name</th><th>Kind</th><th>Timing</th><th>Next fire</th>"
				+ "<th>Last fire</th><th>From</th><th>State</th>").raw(request.writes() ? "<th></th>" : "").raw("</tr>");
		for (ScheduleStatus schedule : schedules) {
			page.raw("<tr>")
				.cell(schedule.name())
				.cell(schedule.kind() == null ? "" : schedule.kind())
				.cell(schedule.timing())
				.time(schedule.nextFireAt())
				.time(schedule.lastFireAt())
				.cell(schedule.added() ? "added at runtime" : "declared")
				.cell(state(schedule));
			if (request.writes()) {
				page.raw("<td>");
				button(page, request, schedule.name(), "trigger", "Run now");
				button(page, request, schedule.name(), schedule.paused() ? "resume" : "pause",
						schedule.paused() ? "Resume" : "Pause");
				page.raw("</td>");
			}
			page.raw("</tr>");
		}
		return page.raw("</table>").end();
	}

	private static void button(ConsoleHtml page, ConsoleRequest request, String name, String action, String label) {
		Map<String, String> fields = new LinkedHashMap<>();
		fields.put("name", name);
		fields.put("action", action);
		page.postButton(request.base() + "/schedules", request.csrfField(), fields, action + "-" + name, label);
	}

	/** A schedule without a next fire time that is not paused is disabled, or was just resumed. */
	private static String state(ScheduleStatus schedule) {
		if (schedule.paused()) {
			return "paused since " + schedule.pausedAt();
		}
		return schedule.nextFireAt() == null ? "disabled" : "active";
	}
}

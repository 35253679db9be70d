package dev.jobqueue.autoconfigure;

import java.util.List;

import dev.jobqueue.autoconfigure.ConsoleServlet.ConsoleRequest;
import dev.jobqueue.store.ScheduleState;

/**
 * The recurring jobs as every node shares them: each schedule's timing, its next and last fire time, and whether
 * it is disabled. A schedule is named after the kind it enqueues.
 */
final class ConsoleSchedulesPage {

	private ConsoleSchedulesPage() {
	}

	static String render(ConsoleRequest request, List<ScheduleState> schedules) {
		ConsoleHtml page = ConsoleHtml.page(request.base(), "Schedules");
		if (schedules.isEmpty()) {
			return page.raw("<p>No recurring job is declared.</p>").end();
		}
		page.raw("<table id=\"schedules\"><tr><th>Name (kind)</th><th>Timing</th><th>Next fire</th>"
				+ "<th>Last fire</th><th>State</th></tr>");
		for (ScheduleState schedule : schedules) {
			page.raw("<tr>")
				.cell(schedule.name())
				.cell(schedule.timing())
				.time(schedule.nextFireAt())
				.time(schedule.lastFireAt())
				.cell(state(schedule))
				.raw("</tr>");
		}
		return page.raw("</table>").end();
	}

	/** A schedule without a next fire time is disabled: it fires no more until a node declares it again. */
	private static String state(ScheduleState schedule) {
		return schedule.nextFireAt() == null ? "disabled" : "active";
	}
}

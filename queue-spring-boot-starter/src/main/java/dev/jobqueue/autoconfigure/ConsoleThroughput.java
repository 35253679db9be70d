package dev.jobqueue.autoconfigure;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.jobqueue.store.FinishedMinute;

/**
 * The overview's table of jobs finished per queue in each of the last {@link #MINUTES} minutes: succeeded,
 * cancelled and dead, the throughput and the failures an operator compares at a glance.
 */
final class ConsoleThroughput {

	static final int MINUTES = 5;

	private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);

	private ConsoleThroughput() {
	}

	/** {@code rows} as the store read them; {@code now} by the database's clock, so the minutes line up. */
	static void render(ConsoleHtml page, List<FinishedMinute> rows, Instant now) {
		List<Instant> minutes = minutes(now);
		page.raw("<h2>Finished per minute (succeeded / cancelled / dead)</h2><table id=\"finished\"><tr><th>Queue</th>");
		minutes.forEach(minute -> page.raw("<th>").text(MINUTE.format(minute) + " UTC").raw("</th>"));
		page.raw("<th>Last " + MINUTES + " minutes</th></tr>");
		byQueue(rows).forEach((queue, byMinute) -> {
			page.raw("<tr><th>").text(queue).raw("</th>");
			minutes.forEach(minute -> page.raw("<td class=\"n\">").text(counts(byMinute.get(minute))).raw("</td>"));
			page.raw("<td class=\"n\" id=\"finished-").text(queue).raw("\">")
				.text((shortened(rows) ? "≥ " : "") + counts(total(queue, byMinute.values())))
				.raw("</td></tr>");
		});
		page.raw("</table>");
		if (shortened(rows)) {
			page.raw("<p id=\"finished-estimate\">Estimate: counted from the newest ")
				.text(ConsoleOverviewPage.count(FinishedMinute.CAP, false))
				.raw(" finished jobs, so the earliest minutes shown are counted short.</p>");
		}
	}

	/** Whether the read stopped at its cap: then the oldest minutes hold only part of their jobs. */
	private static boolean shortened(List<FinishedMinute> rows) {
		long read = 0;
		for (FinishedMinute row : rows) {
			read += row.succeeded() + row.cancelled() + row.dead();
		}
		return read >= FinishedMinute.CAP;
	}

	/** The last minutes, oldest first, the current one last. */
	private static List<Instant> minutes(Instant now) {
		Instant current = now.truncatedTo(ChronoUnit.MINUTES);
		List<Instant> minutes = new ArrayList<>();
		for (int i = MINUTES - 1; i >= 0; i--) {
			minutes.add(current.minus(i, ChronoUnit.MINUTES));
		}
		return minutes;
	}

	private static Map<String, Map<Instant, FinishedMinute>> byQueue(List<FinishedMinute> rows) {
		Map<String, Map<Instant, FinishedMinute>> queues = new TreeMap<>();
		rows.forEach(row -> queues.computeIfAbsent(row.queue(), queue -> new TreeMap<>()).put(row.minute(), row));
		return queues;
	}

	private static FinishedMinute total(String queue, Iterable<FinishedMinute> rows) {
		long succeeded = 0;
		long cancelled = 0;
		long dead = 0;
		for (FinishedMinute row : rows) {
			succeeded += row.succeeded();
			cancelled += row.cancelled();
			dead += row.dead();
		}
		return new FinishedMinute(queue, null, succeeded, cancelled, dead);
	}

	private static String counts(FinishedMinute row) {
		return row == null ? "" : row.succeeded() + " / " + row.cancelled() + " / " + row.dead();
	}
}

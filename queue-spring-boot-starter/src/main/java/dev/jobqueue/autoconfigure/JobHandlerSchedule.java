package dev.jobqueue.autoconfigure;

import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Optional;


import dev.jobqueue.Schedule;
import dev.jobqueue.spring.JobHandler;

/** The schedule attributes of a {@link JobHandler} ({@code cron}, {@code zone}, {@code every}, {@code misfire}). */
final class JobHandlerSchedule {

	private JobHandlerSchedule() {
	}

	/**
	 * The schedule, without its kind, or empty when the handler is not a recurring job.
	 * @throws IllegalArgumentException or {@link java.time.DateTimeException} naming what is wrong
	 */
	static Optional<Schedule> of(JobHandler annotation) {
		boolean cron = !annotation.cron().isEmpty();
		boolean every = !annotation.every().isEmpty();
		if (!annotation.zone().isEmpty() && !cron) {
			throw new IllegalArgumentException("zone '" + annotation.zone() + "' is set without a cron expression");
		}
		if (cron && every) {
			throw new IllegalArgumentException("cron and every are both set; a schedule has one of them");
		}
		if (!cron && !every) {
			return Optional.empty();
		}
		Schedule schedule = cron ? Schedule.cron(annotation.cron(), zone(annotation.zone()))
				: Schedule.every(IntervalText.parse(annotation.every()));
		return Optional.of(schedule.misfire(annotation.misfire()));
	}

	private static ZoneId zone(String zone) {
		return zone.isEmpty() ? ZoneOffset.UTC : ZoneId.of(zone);
	}
}

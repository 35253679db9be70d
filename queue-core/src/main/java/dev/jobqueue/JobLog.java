package dev.jobqueue;

import java.time.Instant;
import java.util.List;

/**
 * What a job's handler told of its work: the lines it logged with {@link JobContext#log}, every attempt's in order,
 * and the latest progress it gave with {@link JobContext#progress}. Kept with the job and deleted with it.
 *
 * @param lines every attempt's lines, oldest first
 * @param progress the latest attempt's last figure, or {@code null} when it gave none
 */
public record JobLog(List<Line> lines, Progress progress) {

	/** The log of a job that logged nothing. */
	public static final JobLog EMPTY = new JobLog(List.of(), null);

	public JobLog {
		lines = List.copyOf(lines);
	}

	/** One line, with the attempt that logged it and when, on that node's clock. */
	public record Line(int attempt, Instant at, String text) {
	}

	/**
	 * How far an attempt got, as its handler last said.
	 *
	 * @param done the units done, 0 to {@code total}
	 * @param total the units in all, at least 1
	 * @param at when the handler said so, on its node's clock
	 */
	public record Progress(int attempt, long done, long total, Instant at) {

		/** {@code done} of {@code total} as a fraction from 0 to 1. */
		public double fraction() {
			return (double) done / total;
		}
	}
}

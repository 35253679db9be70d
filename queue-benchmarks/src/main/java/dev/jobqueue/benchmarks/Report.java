package dev.jobqueue.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * Prints each figure as it is measured, and appends it as a tab-separated line to a results file
 * when one was given ({@code --out}), so that several runs can be summarized.
 */
final class Report {

	private final Path out;

	Report(Path out) {
		this.out = out;
	}

	/** One figure: workload, library, metric name, value, unit, and free-form notes. */
	void figure(String workload, String library, String metric, double value, String unit, String notes) {
		String line = String.format(Locale.ROOT, "%s\t%s\t%s\t%.1f\t%s\t%s", workload, library, metric, value, unit, notes);
		System.out.println(String.format(Locale.ROOT, "%-14s %-13s %-22s %12.1f %-6s %s", workload, library, metric,
				value, unit, notes));
		if (out != null) {
			try {
				Files.writeString(out, line + System.lineSeparator(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
	}
}

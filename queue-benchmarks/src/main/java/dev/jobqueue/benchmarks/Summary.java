package dev.jobqueue.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the results files ({@code --out}) of several runs, one file per run, and prints one Markdown
 * table per workload: per library and metric the median and the range over the runs, and on each peer's
 * row how many times better jobqueue did, taken within each run (same run, same machine state) and then
 * the median of those ratios. Better is more for rates, less for times (figures in ms).
 */
final class Summary {

	private static final Pattern EXECUTIONS = Pattern.compile("duplicates (\\d+), lost (\\d+)");

	/** One figure of one run. */
	record Figure(String workload, String system, String metric, double value, String unit, String notes) {

		static Figure parse(String line) {
			String[] f = line.split("\t", -1);
			return new Figure(f[0], f[1], f[2], Double.parseDouble(f[3]), f[4], f.length > 5 ? f[5] : "");
		}

		String key() {
			return workload + "\t" + metric + "\t" + system;
		}
	}

	private final List<Map<String, Figure>> runs = new ArrayList<>();

	Summary(List<Path> files) throws IOException {
		for (Path file : files) {
			Map<String, Figure> run = new LinkedHashMap<>();
			for (String line : Files.readAllLines(file)) {
				if (!line.isBlank()) {
					Figure figure = Figure.parse(line);
					run.put(figure.key(), figure);
				}
			}
			runs.add(run);
		}
	}

	String markdown() {
		StringBuilder out = new StringBuilder();
		String workload = null;
		for (String key : keys()) {
			List<Figure> figures = figures(key);
			Figure first = figures.get(0);
			if (!first.workload().equals(workload)) {
				out.append(workload == null ? "" : "\n").append("### ").append(first.workload())
					.append("\n\n| metric | system | median | min – max | runs | jobqueue better by | notes |\n")
					.append("|---|---|---:|---:|---:|---:|---|\n");
				workload = first.workload();
			}
			out.append(row(key, figures));
		}
		return out.toString();
	}

	/** Every (workload, metric, system) in the order of first appearance, grouped by workload, then metric. */
	private List<String> keys() {
		Map<String, Map<String, List<String>>> byWorkloadAndMetric = new LinkedHashMap<>();
		for (Map<String, Figure> run : runs) {
			for (Figure figure : run.values()) {
				List<String> keys = byWorkloadAndMetric.computeIfAbsent(figure.workload(), w -> new LinkedHashMap<>())
					.computeIfAbsent(figure.metric(), m -> new ArrayList<>());
				if (!keys.contains(figure.key())) {
					keys.add(figure.key());
				}
			}
		}
		return byWorkloadAndMetric.values().stream().flatMap(m -> m.values().stream()).flatMap(List::stream).toList();
	}

	private List<Figure> figures(String key) {
		return runs.stream().map(run -> run.get(key)).filter(f -> f != null).toList();
	}

	private String row(String key, List<Figure> figures) {
		Figure first = figures.get(0);
		double[] values = figures.stream().mapToDouble(Figure::value).sorted().toArray();
		return String.format(Locale.ROOT, "| %s | %s | %s | %s – %s | %d | %s | %s |%n", first.metric(),
				first.system(), number(median(values)), number(values[0]), number(values[values.length - 1]),
				values.length, ratio(first), remarks(figures));
	}

	/**
	 * The median over the runs of jobqueue's figure divided by this one's (this one's divided by jobqueue's
	 * for times), both from the same run.
	 */
	private String ratio(Figure peer) {
		if (peer.system().equals("jobqueue")) {
			return "";
		}
		String ours = peer.workload() + "\t" + peer.metric() + "\tjobqueue";
		boolean time = peer.unit().equals("ms");
		double[] ratios = runs.stream()
			.filter(run -> run.containsKey(ours) && run.containsKey(peer.key()))
			.mapToDouble(run -> time ? run.get(peer.key()).value() / run.get(ours).value()
					: run.get(ours).value() / run.get(peer.key()).value())
			.filter(Double::isFinite)
			.sorted()
			.toArray();
		return ratios.length == 0 ? "" : number(median(ratios)) + "×";
	}

	/** Timeouts, and duplicates and losses summed over the runs, where the figures counted them. */
	private static String remarks(List<Figure> figures) {
		long timedOut = figures.stream().filter(f -> f.notes().contains("TIMED OUT")).count();
		long duplicates = 0;
		long lost = 0;
		boolean counted = false;
		for (Figure figure : figures) {
			Matcher matcher = EXECUTIONS.matcher(figure.notes());
			if (matcher.find()) {
				counted = true;
				duplicates += Long.parseLong(matcher.group(1));
				lost += Long.parseLong(matcher.group(2));
			}
		}
		String executions = counted ? "duplicates " + duplicates + ", lost " + lost : "";
		String timeouts = timedOut > 0 ? "timed out in " + timedOut + " of " + figures.size() + " runs" : "";
		return String.join(executions.isEmpty() || timeouts.isEmpty() ? "" : "; ", timeouts, executions);
	}

	/** The median of {@code values} past the first {@code unmeasured} (warm-up rounds), in any order. */
	static double medianAfter(double[] values, int unmeasured) {
		double[] measured = Arrays.copyOfRange(values, unmeasured, values.length);
		Arrays.sort(measured);
		return median(measured);
	}

	/** Every value, rounded, as notes list the rounds of a measurement. */
	static String rounded(double[] values) {
		return Arrays.toString(Arrays.stream(values).mapToLong(Math::round).toArray());
	}

	static double median(double[] sorted) {
		int n = sorted.length;
		return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	}

	private static String number(double value) {
		double magnitude = Math.abs(value);
		String format = magnitude >= 100 ? "%,.0f" : magnitude >= 10 ? "%.1f" : "%.2f";
		return String.format(Locale.ROOT, format, value);
	}
}

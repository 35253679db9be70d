package dev.jobqueue.benchmarks;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The guard against a slower build: {@code compare <git-ref> [--rounds 3] [--workloads drain,bulk,latency]
 * [workload options]} builds the benchmark module at that commit (in a worktree under the temporary directory, kept
 * for the next comparison), then runs each workload on jobqueue alone with this build's jar and that one's, each in a
 * fresh JVM on a fresh database, in the order A B, then B A, and so on, and prints per workload and metric both
 * medians and the median over the rounds of this build's ratio to the other, taken within each round: more is
 * better for rates, and for times (figures in ms) the ratio is the other's over this one's. The build runs
 * {@code ./mvnw} in the worktree with the shell's Maven settings ({@code MAVEN_ARGS}).
 */
final class Compare {

	private static final Pattern JDBC = Pattern.compile("(jdbc:[a-z]+://[^/]+/)([^?]*)(.*)");

	private final String ref;

	private final int rounds;

	private final List<String> workloads;

	/** The options every run gets, after its workload: the database, its URL, the sizes. */
	private final List<String> passed;

	private final Path work;

	private Compare(String ref, int rounds, List<String> workloads, List<String> passed, Path work) {
		this.ref = ref;
		this.rounds = rounds;
		this.workloads = workloads;
		this.passed = passed;
		this.work = work;
	}

	static void run(String[] args) throws Exception {
		if (args.length < 2 || args[1].startsWith("--")) {
			throw new IllegalArgumentException("compare needs a git ref: compare <git-ref> [--rounds N] "
					+ "[--workloads drain,bulk] [workload options]");
		}
		int rounds = 3;
		List<String> workloads = List.of("drain", "bulk", "latency");
		List<String> passed = new ArrayList<>();
		for (int i = 2; i < args.length; i++) {
			String option = args[i];
			if (i + 1 >= args.length) {
				throw new IllegalArgumentException(option + " needs a value");
			}
			String value = args[++i];
			switch (option) {
				case "--rounds" -> rounds = positive(option, value);
				case "--workloads" -> workloads = List.of(value.split(","));
				case "--systems", "--out" -> throw new IllegalArgumentException(option
						+ " is compare's own: it runs jobqueue alone and reads each run's results");
				default -> passed.addAll(List.of(option, value));
			}
		}
		for (String workload : workloads) {
			// Checked as a run would check them, before anything is built.
			options(workload, passed);
		}
		String sha = git("rev-parse", "--verify", args[1] + "^{commit}").trim();
		Path work = Path.of(System.getProperty("java.io.tmpdir"), "jobqueue-compare");
		Files.createDirectories(work);
		new Compare(args[1], rounds, workloads, passed, work).compare(thisJar(), build(sha, work.resolve(sha)));
	}

	private void compare(Path ours, Path theirs) throws Exception {
		Map<String, List<double[]>> byMetric = new LinkedHashMap<>();
		Map<String, String> units = new LinkedHashMap<>();
		for (int round = 1; round <= rounds; round++) {
			boolean oursFirst = round % 2 == 1;
			for (String workload : workloads) {
				Map<String, Summary.Figure> a = oursFirst ? measure(ours, "this", workload, round)
						: measure(theirs, ref, workload, round);
				Map<String, Summary.Figure> b = oursFirst ? measure(theirs, ref, workload, round)
						: measure(ours, "this", workload, round);
				Map<String, Summary.Figure> mine = oursFirst ? a : b;
				Map<String, Summary.Figure> other = oursFirst ? b : a;
				for (Map.Entry<String, Summary.Figure> figure : mine.entrySet()) {
					Summary.Figure then = other.get(figure.getKey());
					if (then != null) {
						byMetric.computeIfAbsent(figure.getKey(), key -> new ArrayList<>())
							.add(new double[] { figure.getValue().value(), then.value() });
						units.put(figure.getKey(), figure.getValue().unit());
					}
				}
			}
		}
		System.out.print(table(byMetric, units));
	}

	/** One run of {@code workload} with {@code jar} on a fresh database: its figures by workload and metric. */
	private Map<String, Summary.Figure> measure(Path jar, String build, String workload, int round) throws Exception {
		fresh(options(workload, passed));
		String name = "round-" + round + "-" + workload + "-" + build.replaceAll("[^A-Za-z0-9._-]", "_");
		Path results = work.resolve(name + ".tsv");
		Files.deleteIfExists(results);
		List<String> command = concat(List.of(java(), "-jar", jar.toString(), workload, "--systems", "jobqueue",
				"--out", results.toString()), passed);
		System.out.printf(Locale.ROOT, "round %d, %s, %s%n", round, workload, jar);
		Process process = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(work.resolve(name + ".log").toFile())
			.start();
		if (process.waitFor() != 0 || !Files.exists(results)) {
			throw new IllegalStateException("the run failed, see " + work.resolve(name + ".log"));
		}
		Map<String, Summary.Figure> figures = new LinkedHashMap<>();
		for (String line : Files.readAllLines(results)) {
			if (!line.isBlank()) {
				Summary.Figure figure = Summary.Figure.parse(line);
				figures.put(figure.workload() + "\t" + figure.metric(), figure);
			}
		}
		return figures;
	}

	private String table(Map<String, List<double[]>> byMetric, Map<String, String> units) {
		StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
				"%n| workload | metric | this build | %s | this build better by, median of %d rounds (min – max) |%n"
						+ "|---|---|---:|---:|---:|%n", ref, rounds));
		byMetric.forEach((key, pairs) -> {
			boolean time = units.get(key).equals("ms");
			double[] ratios = pairs.stream().mapToDouble(p -> time ? p[1] / p[0] : p[0] / p[1]).sorted().toArray();
			double[] mine = pairs.stream().mapToDouble(p -> p[0]).sorted().toArray();
			double[] theirs = pairs.stream().mapToDouble(p -> p[1]).sorted().toArray();
			String[] names = key.split("\t");
			out.append(String.format(Locale.ROOT, "| %s | %s | %,.1f | %,.1f | %.2f× (%.2f – %.2f) |%n", names[0],
					names[1], Summary.median(mine), Summary.median(theirs), Summary.median(ratios), ratios[0],
					ratios[ratios.length - 1]));
		});
		return out.toString();
	}

	/** A database with no table of either build's schema: dropped and created again, or a file removed. */
	private static void fresh(Options options) throws SQLException, IOException {
		if (options.url() == null) {
			return;
		}
		if (options.database().equals("sqlite")) {
			String file = options.url().replaceFirst("^jdbc:sqlite:", "").replaceFirst("\\?.*", "");
			for (String suffix : List.of("", "-wal", "-shm")) {
				Files.deleteIfExists(Path.of(file + suffix));
			}
			return;
		}
		Matcher url = JDBC.matcher(options.url());
		if (!url.matches() || url.group(2).isEmpty()) {
			throw new IllegalArgumentException("--url must name its database: " + options.url());
		}
		boolean postgres = options.database().equals("postgresql");
		String server = url.group(1) + (postgres ? "postgres" : "") + url.group(3);
		String quoted = postgres ? '"' + url.group(2) + '"' : '`' + url.group(2) + '`';
		try (Connection connection = DriverManager.getConnection(server);
				Statement statement = connection.createStatement()) {
			statement.execute("DROP DATABASE IF EXISTS " + quoted + (postgres ? " WITH (FORCE)" : ""));
			statement.execute("CREATE DATABASE " + quoted);
		}
	}

	/** The benchmark jar built at {@code sha}, in a worktree of its own; one built before is used again. */
	private static Path build(String sha, Path tree) throws IOException, InterruptedException {
		Path jar = tree.resolve("queue-benchmarks/target/queue-benchmarks.jar");
		if (Files.exists(jar)) {
			return jar;
		}
		if (!Files.exists(tree)) {
			git("worktree", "add", "--force", "--detach", tree.toString(), sha);
		}
		System.out.printf(Locale.ROOT, "building %s in %s%n", sha, tree);
		Process build = new ProcessBuilder("./mvnw", "-q", "-pl", "queue-benchmarks", "-am", "package", "-DskipTests")
			.directory(tree.toFile())
			.redirectErrorStream(true)
			.redirectOutput(tree.resolve("compare-build.log").toFile())
			.start();
		if (build.waitFor() != 0 || !Files.exists(jar)) {
			throw new IllegalStateException("could not build " + sha + ", see " + tree.resolve("compare-build.log"));
		}
		return jar;
	}

	private static String git(String... args) throws IOException, InterruptedException {
		Process git = new ProcessBuilder(concat(List.of("git"), Arrays.asList(args))).redirectErrorStream(true).start();
		String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (git.waitFor() != 0) {
			throw new IllegalStateException("git " + String.join(" ", args) + " failed: " + out.trim());
		}
		return out;
	}

	private static Path thisJar() throws URISyntaxException {
		Path jar = Path.of(Compare.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		if (!jar.toString().endsWith(".jar")) {
			throw new IllegalStateException("compare runs from the benchmark jar (java -jar queue-benchmarks.jar), not "
					+ jar);
		}
		return jar;
	}

	private static Options options(String workload, List<String> passed) {
		return Options.parse(concat(List.of(workload), passed).toArray(String[]::new));
	}

	private static String java() {
		return Path.of(System.getProperty("java.home"), "bin", "java").toString();
	}

	private static int positive(String option, String value) {
		try {
			int n = Integer.parseInt(value);
			if (n > 0) {
				return n;
			}
		}
		catch (NumberFormatException ignored) {
			// reported below, with the option's name
		}
		throw new IllegalArgumentException(option + " must be a positive whole number, was " + value);
	}

	private static List<String> concat(List<String> first, List<String> second) {
		List<String> all = new ArrayList<>(first);
		all.addAll(second);
		return all;
	}
}

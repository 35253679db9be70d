package dev.jobqueue.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every {@code jobqueue.*} property the user-facing pages name exists in the starter's metadata, and the metrics page
 * lists exactly the meters the starter registers.
 */
class PropertyNameTests {

	/** A name in text: {@code jobqueue.} not preceded by a letter, dot or dash (so not {@code dev.jobqueue.core}). */
	private static final Pattern NAME = Pattern.compile("(?<![\\w.\\-/])jobqueue\\.[A-Za-z0-9_.\\-\\[\\]<>*]*");

	private static final Pattern YAML_KEY = Pattern.compile("^(\\s*)(\"?\\[?[^:#\"\\[\\]]+\\]?\"?)\\s*:(.*)$");

	/** The starter's sources that register meters; every jobqueue.* literal in them is a meter's name. */
	private static final List<String> METER_SOURCES = List.of("MicrometerJobListener.java", "JobCountGauges.java",
			"QueueHealthGauges.java");

	/**
	 * Names that are not properties: the observations, their tags and the MDC keys of a running job
	 * (ObservationJobTracing, JobRunner). The meters are read from the code.
	 */
	private static final Set<String> OTHER_NAMES = Set.of("jobqueue.enqueue", "jobqueue.execute", "jobqueue.queue",
			"jobqueue.kind", "jobqueue.jobs", "jobqueue.job.id", "jobqueue.job.kind", "jobqueue.job.attempt");

	@TestFactory
	Stream<DynamicTest> everyPropertyNamedInTheDocsExists() {
		Metadata metadata = Metadata.load();
		Set<String> meters = meters();
		return Markdown.userFiles().stream().map(file -> DynamicTest.dynamicTest(Markdown.relative(file), () -> {
			List<String> unknown = new ArrayList<>();
			for (String name : names(file)) {
				String property = name.replaceAll("\\.\\*$", "").replaceAll("[.\\-]+$", "");
				boolean prefixOfMeters = name.endsWith(".*")
						&& meters.stream().anyMatch(meter -> meter.startsWith(property + "."));
				if (!metadata.knows(property) && !meters.contains(property) && !OTHER_NAMES.contains(property)
						&& !prefixOfMeters) {
					unknown.add(name);
				}
			}
			assertThat(unknown).as("jobqueue.* names in %s that the metadata does not have", Markdown.relative(file))
				.isEmpty();
		}));
	}

	@Test
	void theMetricsPageListsEveryMeterTheStarterRegisters() {
		Path page = Markdown.root().resolve("docs/operations/metrics-and-health.md");
		Set<String> listed = new TreeSet<>();
		boolean inMeters = false;
		for (String line : Markdown.lines(page)) {
			if (line.startsWith("## ")) {
				inMeters = line.equals("## The meters");
			}
			Matcher row = Pattern.compile("^\\| `(jobqueue\\.[a-z.]+)` \\|").matcher(line);
			if (inMeters && row.find()) {
				listed.add(row.group(1));
			}
		}
		assertThat(listed).as("the meters of docs/operations/metrics-and-health.md, \"The meters\"")
			.isEqualTo(meters());
	}

	@Test
	void namesAreFoundInTextInPropertiesAndInYaml() {
		Metadata metadata = Metadata.load();
		assertThat(metadata.knows("jobqueue.queues.mail.concurrency")).isTrue();
		assertThat(metadata.knows("jobqueue.queues.<name>.prefetch")).isTrue();
		assertThat(metadata.knows("jobqueue.schedules.nightly.cron")).isTrue();
		assertThat(metadata.knows("jobqueue.concurrency-key-limits.tenant-")).isTrue();
		assertThat(metadata.knows("jobqueue.queues.mail.concurency")).isFalse();
		assertThat(metadata.knows("jobqueue.pol-interval")).isFalse();
		assertThat(yamlNames(List.of("jobqueue:", "  queues:", "    mail:", "      concurrency: 2 # two",
				"  \"[x]\": 1", "other:", "  jobqueue: 1"))).containsExactly("jobqueue", "jobqueue.queues",
						"jobqueue.queues.mail", "jobqueue.queues.mail.concurrency", "jobqueue.x");
	}

	static Set<String> meters() {
		Set<String> meters = new TreeSet<>();
		Path sources = Markdown.root().resolve("queue-spring-boot-starter/src/main/java/dev/jobqueue/autoconfigure");
		for (String source : METER_SOURCES) {
			try {
				Matcher literal = Pattern.compile("\"(jobqueue\\.[a-z.]+)\"").matcher(Files.readString(sources.resolve(source)));
				while (literal.find()) {
					meters.add(literal.group(1));
				}
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
		}
		return meters;
	}

	private static List<String> names(Path file) {
		List<String> names = new ArrayList<>();
		Matcher inText = NAME.matcher(String.join("\n", Markdown.lines(file)));
		while (inText.find()) {
			names.add(inText.group().replace("[", ".").replace("]", "").replace("\"", ""));
		}
		for (Markdown.Block block : Markdown.blocks(file)) {
			if (block.info().startsWith("yaml") || block.info().startsWith("yml")) {
				names.addAll(yamlNames(List.of(block.text().split("\n"))));
			}
		}
		return names;
	}

	/** The dotted keys of a YAML block under a root key {@code jobqueue}: enough YAML for the docs' examples. */
	static List<String> yamlNames(List<String> lines) {
		List<String> names = new ArrayList<>();
		Deque<int[]> indents = new ArrayDeque<>();
		Deque<String> keys = new ArrayDeque<>();
		for (String line : lines) {
			Matcher key = YAML_KEY.matcher(line);
			if (line.isBlank() || line.trim().startsWith("#") || line.trim().startsWith("-") || !key.matches()) {
				continue;
			}
			int indent = key.group(1).length();
			while (!indents.isEmpty() && indents.peek()[0] >= indent) {
				indents.pop();
				keys.pop();
			}
			indents.push(new int[] { indent });
			keys.push(key.group(2).replaceAll("^\"?\\[?|\\]?\"?$", "").trim());
			List<String> path = new ArrayList<>(keys);
			java.util.Collections.reverse(path);
			if (path.get(0).equals("jobqueue")) {
				names.add(String.join(".", path));
			}
		}
		return names;
	}
}
